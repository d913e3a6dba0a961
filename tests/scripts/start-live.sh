#!/bin/bash
# start.sh itself, from this checkout, to the app running the Write lesson live (issue 16). Without a
# display start.sh plays the lesson headless in the app and saves its screenshot; on a machine without an
# ACTIVE RDMA port (this project's machines) the app boots the SoftRoCE VM and runs the engine in it. The
# app says on stderr where its first live step ran and what B's buffer held when the lesson verified; this
# checks both, start.sh's exit status, and the screenshot. How long it took is for
# tests/bench/start-to-live.sh to report, not for this test to assert.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "start-live: FAIL: $*" >&2; exit 1; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
shot=$root/build/start/write.png
rm -f "$shot"
QT_QPA_PLATFORM=offscreen "$root/resources/scripts/start.sh" write >"$log" 2>&1
status=$?
cat "$log"
[ $status -eq 0 ] || fail "start.sh exited with status $status"
choice=$(sed -n 's/^start\.sh: \(local\|vm\|softroce\): .*/\1/p' "$log" | head -1)
case $choice in
    vm) where="SoftRoCE VM (qemu, software CPU emulation)" ;;
    local) where="this machine" ;;
    *) fail "start.sh named no choice" ;;
esac
grep -q "^rdmalab: first live step done on [a-z0-9_]* · $where\$" "$log" \
    || fail "the app did not report a live step on a device · $where"
grep -q "^rdmalab: the lesson verified on [a-z0-9_]* · $where; B's buffer begins \"Hello, RDMA!" "$log" \
    || fail "the app did not report the lesson verified with B's buffer holding A's message"
[ "$(head -c 8 "$shot" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] \
    || fail "no PNG screenshot at $shot"
echo "start-live: ok ($choice: the Write lesson ran live · $where; screenshot $shot)"
