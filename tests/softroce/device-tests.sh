#!/bin/sh
# Runs inside the SoftRoCE VM (started by tests/run-all.sh): the tests labelled "device" of each build in
# RDMALAB_DEVICE_PRESETS (default "dev asan"; the asan build's selection is RDMALAB_ASAN_DEVICE_FILTER,
# which run-all.sh sets and explains), then the curriculum, the cost of tracing every work request, and a soak of RDMALAB_SOAK_RUNS runs (0: none)
# with the dev build. A missing device is a failure here, not a skip.
# CTest's output is streamed as it runs, verbose (every function's PASS line, which run-all.sh counts),
# and kept in build/device-PRESET.log, so when the VM's time limit stops a run, the console shows which
# test was running.
export RDMALAB_REQUIRE_DEVICE=1
export QT_QPA_PLATFORM=offscreen
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
status=0
rdma link show
# Helper processes that outlive 100 s get a stack report; a test process is stopped by its own
# per-function time limit (QTEST_FUNCTION_TIMEOUT, tests/CMakeLists.txt), where Qt Test prints its stack.
"$(dirname "$0")/hang-report.sh" 100 &
reporter=$!
for preset in ${RDMALAB_DEVICE_PRESETS:-dev asan}; do
  echo "---- device tests ($preset build)"
  exclude=""
  [ "$preset" = asan ] && exclude=${RDMALAB_ASAN_DEVICE_FILTER--LE slow -E tst_app_|tst_bench_}
  log="build/device-$preset.log"
  # Every device test compares the kernel's RDMA resource counts before and after (tests/common/testutil.cpp).
  export RDMALAB_RESOURCE_LOG="$PWD/build/resources-$preset.log"
  rm -f "$RDMALAB_RESOURCE_LOG"
  { ctest --test-dir "build/$preset" -L device $exclude -V 2>&1 || echo "ctest-failed" > "$log.status"; } |
    tee "$log"
  if [ -f "$log.status" ]; then status=1; rm -f "$log.status"; fi
  checked=$(cat "$RDMALAB_RESOURCE_LOG" 2>/dev/null | grep -c .)
  different=$(cat "$RDMALAB_RESOURCE_LOG" 2>/dev/null | grep -c "	DIFFERENT	")
  echo "---- rdma resources ($preset build): $checked device tests counted before and after, $different with a difference"
  grep "	DIFFERENT	" "$RDMALAB_RESOURCE_LOG" 2>/dev/null
  [ "$checked" -gt 0 ] && [ "$different" -eq 0 ] || status=1
done
# The curriculum: every lab of labs/ on the device (curriculum.sh).
"$(dirname "$0")/curriculum.sh" || status=1
# One engine process through lessons and measurements: fds, threads and RDMA resources back to where they
# started, memory flat after warm-up (docs/soak.md has the 1,000-run version). About 50 s for 40 runs.
soak_runs=${RDMALAB_SOAK_RUNS:-40}
if [ "$soak_runs" -gt 0 ]; then
  echo "---- soak (dev build): tests/bench/soak.sh --runs $soak_runs --every 10"
  tests/bench/soak.sh --runs "$soak_runs" --every 10 --cli build/dev/engine/rdmalab-cli || status=1
fi
# What tracing every work request costs (issue 34): write_bw at 64 B untraced and traced, alternated in one
# invocation; the ratio is reported here, not asserted (a benchmark, not a timed test; docs/trace-format.md).
if [ "${RDMALAB_TRACE_WR_BENCH:-1}" = 1 ]; then
  echo "---- the binary tier on the device: bench write_bw --size 64 --iters 20000 --trace-wr --trace-wr-rounds 5"
  build/dev/engine/rdmalab-cli bench write_bw --size 64 --iters 20000 --trace-wr --trace-wr-rounds 5 |
    grep -E "tracing every work request|pipeline:" || status=1
fi
kill "$reporter" 2>/dev/null
exit $status
