#!/bin/bash
# start.sh from a checkout under /root, as root in a fresh container clones it (issue 28): the guest of the
# SoftRoCE VM hides /root under a tmpfs of its own (tests/softroce/guest-tmpfs.list), so the app must share
# the checkout with it. A copy of this checkout's files (what git tracks, and any change not committed yet)
# goes to "/root/rdmalab start-live.XXXXXX/rdma lab" (a path with spaces too) and start-live.sh runs there:
# start.sh builds that copy (the compiler cache makes that quick), boots the VM and ends with the Write
# lesson verified live. The copy is removed afterwards. Needs root (exit 77, CTest's skip, otherwise).
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd -P)
fail() { echo "start-live-under-root: FAIL: $*" >&2; exit 1; }
[ -w /root ] || { echo "start-live-under-root: SKIP: /root is not writable (run the tests as root)"; exit 77; }
parent=$(mktemp -d "/root/rdmalab start-live.XXXXXX") || fail "cannot make a directory under /root"
trap 'rm -rf "$parent"' EXIT
copy="$parent/rdma lab"
mkdir "$copy"
(cd "$src" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$copy" 2>/dev/null)
[ -x "$copy/resources/scripts/start.sh" ] || fail "the copy in '$copy' has no start.sh"
rm -rf "$copy/build"
echo "start-live-under-root: start.sh from '$copy'"
"$copy/tests/scripts/start-live.sh" || fail "start.sh from a checkout under /root did not end with the lesson verified"
echo "start-live-under-root: ok (the Write lesson ran live in the VM from a checkout under /root)"
