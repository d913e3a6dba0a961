#!/bin/bash
# start.sh --which on made-up sysfs trees: an ACTIVE port means local; a DOWN port and no rdma_rxe means the
# VM; rdma_rxe with an interface up with an address means the SoftRoCE offer (else the VM, saying why).
set -uo pipefail
START=$(cd "$(dirname "$0")/../.." && pwd)/resources/scripts/start.sh
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
fail() { echo "start-choice: FAIL: $*" >&2; exit 1; }

mkdir -p "$tree/a/class/infiniband/mlx5_0/ports/1" "$tree/a/class/infiniband/rxe0/ports/1"
echo "1: DOWN" > "$tree/a/class/infiniband/mlx5_0/ports/1/state"
echo "4: ACTIVE" > "$tree/a/class/infiniband/rxe0/ports/1/state"
out=$(RDMALAB_SYSFS=$tree/a "$START" --which) || fail "exit status $?"
[ "$out" = "local: rxe0 has a port in state ACTIVE" ] || fail "ACTIVE port: '$out'"

mkdir -p "$tree/b/class/infiniband/mlx5_0/ports/1"
echo "1: DOWN" > "$tree/b/class/infiniband/mlx5_0/ports/1/state"
out=$(RDMALAB_SYSFS=$tree/b "$START" --which) || fail "exit status $?"
[ "$out" = "vm: no ACTIVE RDMA port, and this kernel has no rdma_rxe module" ] || fail "no device: '$out'"

mkdir -p "$tree/c/module/rdma_rxe"
out=$(RDMALAB_SYSFS=$tree/c "$START" --which) || fail "exit status $?"
iface=$(ip -o -4 address show up scope global 2>/dev/null | awk '$2 != "lo" { print $2; exit }')
if [ -n "$iface" ]; then
    expected="softroce: no ACTIVE RDMA port, but the kernel has rdma_rxe and $iface is up with an address"
else
    expected="vm: the kernel has rdma_rxe, but no interface other than lo is up with an address"
fi
[ "$out" = "$expected" ] || fail "rdma_rxe: '$out', expected '$expected'"
echo "start-choice: ok (local, vm, ${expected%%:*})"
