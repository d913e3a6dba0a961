#!/usr/bin/env bash
# Sets everything up and starts rdmalab's main job: one real RDMA operation through rdmalab-cli, printing every
# verbs call. Uses this machine's RDMA device when it has one, otherwise the SoftRoCE test bed (a Debian kernel
# with rdma_rxe under qemu). Arguments are passed to `rdmalab-cli op` (default: write --size 64).
set -euo pipefail
cd "$(dirname "$0")/../.."
resources/scripts/install-deps.sh
cmake --preset dev >/dev/null
cmake --build --preset dev --target rdmalab-cli
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(write --size 64 --message "Hello from rdmalab! ")
if [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
  exec build/dev/engine/rdmalab-cli op "${args[@]}"
fi
echo "start.sh: this machine has no RDMA device; running in the SoftRoCE test bed (rxe0 inside a qemu VM)"
exec tests/softroce/vm-run.sh -- build/dev/engine/rdmalab-cli op "${args[@]}"
