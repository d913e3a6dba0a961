#!/bin/sh
# Runs inside the SoftRoCE VM (started by tests/run-all.sh): every test labelled "device", in the dev build and
# the asan+ubsan build. A missing device is a failure here, not a skip.
export RDMALAB_REQUIRE_DEVICE=1
export QT_QPA_PLATFORM=offscreen
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
rdma link show
for preset in dev asan; do
  echo "---- device tests ($preset build)"
  exclude=""
  [ "$preset" = asan ] && exclude="-LE slow" # whole GUI lessons run in the dev build only (time)
  ctest --test-dir "build/$preset" -L device $exclude --output-on-failure > "build/device-$preset.log" 2>&1 || status=1
  cat "build/device-$preset.log"
done
exit $status
