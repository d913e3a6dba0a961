#!/bin/bash
# The whole device suite under load (docs/testing.md, "Under load"): ROUNDS runs in a row of the test bed's
# device tests (tests/softroce/device-tests.sh: the dev and asan builds, the curriculum, the soak), each with
# BURNERS processes burning a host CPU beside the VM. Every timing relation a test or lab asserts must
# hold so; one that does not belongs in a benchmark. Needs the dev and asan builds of this checkout.
#
# usage: tests/scripts/device-under-load.sh [ROUNDS, default 2] [BURNERS, default 1]
set -uo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-2}
burners=${2:-1}
for preset in dev asan; do
  [ -x "build/$preset/engine/rdmalab-cli" ] || { echo "device-under-load: build the $preset preset first" >&2; exit 2; }
done
pids=()
stop() { [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null; }
trap stop EXIT
for ((i = 0; i < burners; i++)); do
  (while :; do :; done) &
  pids+=($!)
done
status=0
for ((round = 1; round <= rounds; round++)); do
  began=$(date +%s)
  echo "==== device-under-load: round $round of $rounds, $burners CPU burner(s) beside the VM"
  if tests/softroce/vm-run.sh --timeout 3600 --out "$(pwd -P)" -- tests/softroce/device-tests.sh; then
    echo "==== device-under-load: round $round passed in $(($(date +%s) - began)) s"
  else
    echo "==== device-under-load: round $round FAILED after $(($(date +%s) - began)) s"
    status=1
  fi
done
exit $status
