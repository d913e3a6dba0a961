#!/bin/sh
# Runs inside the SoftRoCE VM (started by tests/run-all.sh): every test labelled "device", in the dev build and
# the asan+ubsan build. A missing device is a failure here, not a skip.
# CTest's output is streamed as it runs (and kept in build/device-PRESET.log), so when the VM's time limit
# stops a run, the console shows which test was running.
export RDMALAB_REQUIRE_DEVICE=1
export QT_QPA_PLATFORM=offscreen
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
rdma link show
"$(dirname "$0")/hang-report.sh" 100 &
reporter=$!
for preset in dev asan; do
  echo "---- device tests ($preset build)"
  exclude=""
  # Time: under ASan every process starts slowly in the VM, so the asan run leaves out the slow tests, the
  # app's device tests (the app's host tests run under ASan on the host) and the benchmarks (a sanitized
  # benchmark measures the sanitizer). tests/run-all.sh counts the same set.
  [ "$preset" = asan ] && exclude="-LE slow -E tst_app_|tst_bench_"
  log="build/device-$preset.log"
  # Every device test compares the kernel's RDMA resource counts before and after (tests/common/testutil.cpp).
  export RDMALAB_RESOURCE_LOG="$PWD/build/resources-$preset.log"
  rm -f "$RDMALAB_RESOURCE_LOG"
  { ctest --test-dir "build/$preset" -L device $exclude --output-on-failure 2>&1 || echo "ctest-failed" > "$log.status"; } |
    tee "$log"
  if [ -f "$log.status" ]; then status=1; rm -f "$log.status"; fi
  checked=$(cat "$RDMALAB_RESOURCE_LOG" 2>/dev/null | grep -c .)
  different=$(cat "$RDMALAB_RESOURCE_LOG" 2>/dev/null | grep -c "	DIFFERENT	")
  echo "---- rdma resources ($preset build): $checked device tests counted before and after, $different with a difference"
  grep "	DIFFERENT	" "$RDMALAB_RESOURCE_LOG" 2>/dev/null
  [ "$checked" -gt 0 ] && [ "$different" -eq 0 ] || status=1
done
# The curriculum: every lab of labs/ on the device, every expectation held, and the kernel's RDMA resource
# counts the same before and after (a lab that leaves an object behind is a bug). About 30 s in the VM.
echo "---- labs (dev build): rdmalab-cli lab run --all"
rdma -j resource show >build/labs-resources-before.json
build/dev/engine/rdmalab-cli lab run --all || status=1
rdma -j resource show >build/labs-resources-after.json
if cmp -s build/labs-resources-before.json build/labs-resources-after.json; then
  echo "---- labs: rdma resource counts equal before and after"
else
  echo "---- labs: rdma resource counts DIFFER before and after:"
  diff build/labs-resources-before.json build/labs-resources-after.json
  status=1
fi
# One engine process through 40 lessons and measurements: fds, threads and RDMA resources back to where they
# started, memory flat after warm-up (docs/soak.md has the 1,000-run version). About 50 s in the VM.
echo "---- soak (dev build): tests/bench/soak.sh --runs 40 --every 10"
tests/bench/soak.sh --runs 40 --every 10 --cli build/dev/engine/rdmalab-cli || status=1
kill "$reporter" 2>/dev/null
exit $status
