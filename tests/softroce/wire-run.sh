#!/bin/bash
# Two SoftRoCE hosts on one virtual wire: boots two test-bed VMs (vm-run.sh --wire) joined by qemu's stream
# netdev over a Unix socket in a private temporary directory (no other network: the wire exists only
# between the two guests), runs HOST1_COMMAND on host 1 (192.0.2.1) and HOST2_COMMAND on host 2
# (192.0.2.2), each with `sh -c`, and prints their output prefixed "host1| " and "host2| ".
#
# usage: wire-run.sh [--timeout SECONDS] [--out DIR] [--env NAME[=VALUE]]... -- HOST1_COMMAND HOST2_COMMAND
#
# Each command sees RDMALAB_WIRE_DEV (rxe2, the device on the wire), RDMALAB_WIRE_ADDR, RDMALAB_WIRE_PEER
# and RDMALAB_WIRE_IF (vm-run.sh). The commands coordinate themselves (e.g. host 2 retries its connect
# until host 1 listens). Exit status: 0 when both commands succeed, else the first failing host's status
# (host 1's first), 125 when a VM could not start, 124 on --timeout.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PROG=rdmalab-wire
usage() {
    sed -n '/^# usage:/,/^# Each/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//; /^Each/d' >&2
    exit 125
}
die() { echo "$PROG: ERROR: $*" >&2; exit 125; }

VM_ARGS=()
TIMEOUT=${RDMALAB_VM_TIMEOUT:-1200}
while (($#)); do
    case $1 in
        --timeout) [ $# -ge 2 ] || usage; TIMEOUT=$2; VM_ARGS+=(--timeout "$2"); shift 2 ;;
        --out|--env|-e) [ $# -ge 2 ] || usage; VM_ARGS+=("$1" "$2"); shift 2 ;;
        --) shift; break ;;
        -h|--help) usage ;;
        *) echo "$PROG: unknown option '$1'" >&2; usage ;;
    esac
done
[ $# -eq 2 ] || usage
[[ $TIMEOUT =~ ^[0-9]+$ ]] || die "--timeout must be a number of seconds"

# The kernel and initramfs once, before either VM starts (both VMs would otherwise wait on its lock).
"$HERE/prepare.sh" >/dev/null || die "prepare.sh failed (see above)"

DIR=$(mktemp -d "${TMPDIR:-/tmp}/rdmalab-wire.XXXXXX") || die "mktemp failed"
PID1=
PID2=
cleanup() {
    for p in $PID1 $PID2; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$DIR"
}
trap cleanup EXIT
trap 'echo "$PROG: interrupted" >&2; exit 130' INT TERM
SOCK=$DIR/wire.sock

"$HERE/vm-run.sh" "${VM_ARGS[@]}" --wire "$SOCK" --wire-host 1 -- sh -c "$1" \
    > >(sed -u 's/^/host1| /') 2>&1 &
PID1=$!
# Host 1's qemu listens on the socket before its guest boots; host 2 connects to it.
for _ in $(seq 600); do
    [ -S "$SOCK" ] && break
    kill -0 "$PID1" 2>/dev/null || break
    sleep 0.1
done
if [ ! -S "$SOCK" ]; then
    wait "$PID1"
    die "host 1's VM did not open the wire $SOCK (status $?)"
fi
"$HERE/vm-run.sh" "${VM_ARGS[@]}" --wire "$SOCK" --wire-host 2 -- sh -c "$2" \
    > >(sed -u 's/^/host2| /') 2>&1 &
PID2=$!

wait "$PID1"
rc1=$?
PID1=
wait "$PID2"
rc2=$?
PID2=
wait # the output filters
echo "$PROG: host 1 exited $rc1, host 2 exited $rc2" >&2
[ "$rc1" = 0 ] || exit "$rc1"
exit "$rc2"
