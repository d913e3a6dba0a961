#!/usr/bin/env bash
# Sets everything up and runs the tests: installs the Debian packages, checks the formatting, builds the
# presets, runs the host tests, the app's engine in a VM it boots itself (ctest -L vm), each fuzz target for
# a share of a time budget (tests/fuzz/run.sh), then boots the SoftRoCE test bed (tests/softroce/) and runs
# the device tests inside it; clang-tidy runs beside all of it at idle priority (new findings fail). Fails when any test or check
# fails, when the VM run fails, or when a device test did not run. At the end it prints every stage's time
# and the state (warm or cold) of the caches it started with.
#
# usage: tests/run-all.sh [--quick | --full] [--fresh-machine]
#   (none)           what CI runs (docs/testing.md has its stages and times): dev, asan+ubsan and tsan;
#                    the host tests of each; the VM tests; clang-tidy; fuzzing for 120 s in all; in the
#                    test bed every device test of the dev build, the curriculum and a short soak, and
#                    under ASan the engine's and the lab runner's device tests.
#   --quick          for someone who only wants to know the project works: the dev build, its host tests
#                    and, in the test bed, its device tests and the curriculum (about 10 minutes warm).
#   --full           CI and what CI leaves out for time: every device test under ASan too, the tsan build
#                    of every suite, fuzzing for 20 minutes in all, a 200-run soak.
#   --fresh-machine  (also when CI=true) the dev preset is built and host-tested inside a minimal Debian 12
#                    root that has only what install-deps.sh installs, and the .deb is built and installed
#                    there (tests/fresh-machine/check.sh, needs root); the device tests run that same build.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
start=$(date +%s)
fresh=0
mode=ci
case ${RDMALAB_FRESH_MACHINE:-${CI:-}} in 1 | true | yes) fresh=1 ;; esac
for arg in "$@"; do
  case $arg in
    --fresh-machine) fresh=1 ;;
    --quick) mode=quick ;;
    --full) mode=full ;;
    *) echo "usage: tests/run-all.sh [--quick | --full] [--fresh-machine]" >&2; exit 2 ;;
  esac
done
[ $mode = quick ] && fresh=0 # the quick run builds on this machine only

# One compiler cache for every build of the project: the presets here and the fresh-machine root's dev
# build (tests/fresh-machine/check.sh mounts the same directory), so any of them warms the others. Paths
# under the clone are hashed relative to it, so a fresh clone in another directory reuses the objects.
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/rdmalab/ccache} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true
vm_cache=${RDMALAB_VM_CACHE:-$HOME/.cache/rdmalab/vm}
fresh_cache=${RDMALAB_FRESH_CACHE:-$HOME/.cache/rdmalab/fresh}
tidy_cache=${RDMALAB_TIDY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rdmalab/tidy}

# The caches as this run found them: warm (holds what an earlier run left) or cold.
files_in() { find "$1" -type f 2>/dev/null | head -n "$2" | wc -l; }
cache_ccache=$([ "$(files_in "$CCACHE_DIR" 200)" -ge 200 ] && echo warm || echo cold)
cache_vm=$(env=$vm_cache/current.env; [ -s "$env" ] && [ -s "$(sed -n 's/^RDMALAB_VM_KERNEL=//p' "$env")" ] &&
  echo warm || echo cold)
cache_fresh=$(compgen -G "$fresh_cache/deps-*" >/dev/null && echo warm || echo cold)
cache_tidy=$([ "$(files_in "$tidy_cache" 50)" -ge 50 ] && echo warm || echo cold)

# Every stage's name, seconds and the caches it depends on, for the table at the end.
stages=()
stage_name=""
stage_began=0
stage_caches=""
end_stage() {
  local label=${stage_name%% (*}
  [ -n "$stage_name" ] && stages+=("$(printf '%-52s %6ss  %s' "${label%%:*}" "$(($(date +%s) - stage_began))" "$stage_caches")")
  stage_name=""
}
# step NAME [CACHES]: a new stage begins (and says when, in seconds since the start).
step() {
  end_stage
  stage_name=$1 stage_caches=${2:-} stage_began=$(date +%s)
  printf '\n==== %s (at %ss)\n' "$1" "$((stage_began - start))"
}
stages_printed=0
print_stages() {
  [ $stages_printed -eq 0 ] || return 0
  stages_printed=1
  end_stage
  printf '\n==== stages (%s run; caches at the start: ccache %s, VM kernel %s, fresh-machine roots %s, clang-tidy %s)\n' \
    "$mode" "$cache_ccache" "$cache_vm" "$cache_fresh" "$cache_tidy"
  printf '%s\n' "${stages[@]}"
  printf '%-52s %6ss\n' "total" "$(($(date +%s) - start))"
}
die() {
  printf '\nrun-all: FAILED: %s\n' "$*" >&2
  print_stages
  exit 1
}

step "dependencies (resources/scripts/install-deps.sh)"
resources/scripts/install-deps.sh || die "installing dependencies"

step "formatting (clang-format --dry-run -Werror)"
tests/lint/format.sh || die "formatting (tests/lint/format.sh)"

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# clang-tidy runs through the whole run at idle priority (SCHED_IDLE), on a build tree of its own that is
# only configured (build/tidy: the dev preset's compile commands; the files it analyses include no generated
# moc output). It takes the cycles the rest leaves (downloads and unpacking for the fresh-machine roots, tests
# that wait on timers or processes, the emulated machine waiting on its own timers) and yields the moment
# anything else wants them; the run waits for it at the end.
tidy_pid=""
if [ $mode != quick ]; then
  tidy_began=$(date +%s)
  chrt --idle 0 nice -n 19 bash -c 'cmake --preset dev -B build/tidy -DCMAKE_UNITY_BUILD=OFF >/dev/null && exec tests/lint/tidy.sh build/tidy' \
    >"$logs/tidy.log" 2>&1 &
  tidy_pid=$!
fi

passed=0; failed=0; skipped=0
# Adds the counts of one ctest run (its output in $1) to the totals.
count() {
  local log=$1 total fail skip
  sed -i 's/\x1b\[[0-9;]*m//g' "$log" # CTest colours its summary on some terminals
  total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$log" | tail -1)
  fail=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  skip=$(grep -c '(Skipped)' "$log" || true)
  total=${total:-0}; fail=${fail:-0}
  passed=$((passed + total - fail - skip)); failed=$((failed + fail)); skipped=$((skipped + skip))
}

host_status=0
case $mode in
  quick) presets=(dev) ;;
  *) presets=(dev asan tsan) ;;
esac
prepare_pid=""
if [ $fresh -eq 1 ]; then
  # The fresh-machine roots (debootstrap, then install-deps.sh in the root: downloads and unpacking, minutes
  # when the cache is cold) are made beside the asan and tsan builds; the check itself follows them.
  tests/fresh-machine/check.sh --prepare-only >"$logs/fresh-prepare.log" 2>&1 &
  prepare_pid=$!
  presets=("${presets[@]/dev/}")
fi

# The tsan build: the engine's multi-threaded code (the engine process's worker and reporter threads, a
# benchmark's peer thread, the lab runner's thread) and the host suites that drive it (label threads);
# --full builds and runs every host suite under it.
# threads_suites (tests/CMakeLists.txt) is every suite labelled threads, and rdmalab-cli.
tsan_targets=(--target threads_suites)
tsan_tests=(-L threads)
[ $mode = full ] && tsan_targets=() tsan_tests=()
for preset in "${presets[@]}"; do
  [ -n "$preset" ] || continue
  step "build $preset (configure and build)" "ccache $cache_ccache"
  cmake --preset "$preset" >/dev/null || die "configure $preset"
  if [ "$preset" = tsan ]; then
    cmake --build --preset tsan "${tsan_targets[@]}" || die "build tsan"
  else
    cmake --build --preset "$preset" || die "build $preset"
  fi
done

if [ $fresh -eq 1 ]; then
  step "fresh-machine check: a minimal Debian 12 root builds dev, passes the host tests, installs the .deb" \
    "fresh-machine roots $cache_fresh, ccache $cache_ccache"
  wait "$prepare_pid" || { cat "$logs/fresh-prepare.log"; die "making the fresh-machine roots (tests/fresh-machine/check.sh --prepare-only)"; }
  sed -n 's/^fresh-machine: the roots are ready/fresh-machine: the roots were made beside the builds above, ready/p' "$logs/fresh-prepare.log"
  tests/fresh-machine/check.sh || die "the fresh-machine check (tests/fresh-machine/check.sh)"
  count build/fresh-host-dev.log
fi

for preset in "${presets[@]}"; do
  [ -n "$preset" ] || continue
  step "host tests $preset (two at a time): device tests run in the test bed below"
  filter=(-L host)
  [ "$preset" = tsan ] && [ ${#tsan_tests[@]} -gt 0 ] && filter=(-L host "${tsan_tests[@]}")
  ctest --preset "$preset" -j2 "${filter[@]}" 2>&1 | tee "$logs/host-$preset.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || host_status=1
  count "$logs/host-$preset.log"
done

if [ $mode != quick ]; then
  # The app boots the SoftRoCE VM itself (rdmalab --engine vm) and runs the Write lesson in it, and start.sh
  # does the same from this checkout and from a copy of it under /root (the tests labelled vm; the VM sees
  # the checkout as the device tests below do); and two SoftRoCE hosts on one virtual wire, the CLI's
  # two-host modes across it and its real RoCE v2 packets checked with tshark (wire_two_hosts, label wire).
  step "the app's engine in a SoftRoCE VM it boots itself; two SoftRoCE hosts on a wire (ctest -L vm, dev)" "VM kernel $cache_vm"
  ctest --test-dir build/dev -L vm --output-on-failure 2>&1 | tee "$logs/vm-host.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || host_status=1
  count "$logs/vm-host.log"

  fuzz_budget=${RDMALAB_FUZZ_BUDGET:-$([ $mode = full ] && echo 1200 || echo 120)}
  step "fuzzing: the libFuzzer targets for $fuzz_budget s in all, two at a time (tests/fuzz/run.sh)" "ccache $cache_ccache"
  tests/fuzz/run.sh --budget "$fuzz_budget" ||
    die "a fuzz target found a crash, leak or time-out (input kept in build/fuzz/findings)"
fi

step "device tests inside the SoftRoCE test bed (qemu TCG, rdma_rxe)" "VM kernel $cache_vm"
# What the test bed runs (tests/softroce/device-tests.sh): every device test of the dev build; under ASan
# the engine's and the lab runner's (tst_verbs, tst_failures, tst_operations, tst_cli_device and the lab
# runner's own checks of tst_labs): the code that calls verbs, where a bad pointer or a use after free
# hides from the dev build. The app's device tests drive that same engine through a process boundary, and
# the app's code runs under ASan in the host tests; the benchmarks under ASan would measure the sanitizer.
device_presets=(dev asan)
asan_filter=(-LE slow -E 'tst_app_|tst_bench_')
case $mode in
  quick) device_presets=(dev) ;;
  full) asan_filter=() ;;
esac
export RDMALAB_DEVICE_PRESETS="${device_presets[*]}" RDMALAB_ASAN_DEVICE_FILTER="${asan_filter[*]}"
export RDMALAB_SOAK_RUNS=$([ $mode = full ] && echo 200 || echo 40)
[ $mode = quick ] && export RDMALAB_SOAK_RUNS=0
# The number of test functions each preset's device run must report (tests/CMakeLists.txt writes each
# device process's functions to device-functions.txt).
expected_functions() {
  local preset=$1 tests
  shift
  tests=$(ctest --test-dir "build/$preset" -L device "$@" -N | sed -n 's/^ *Test *#[0-9]*: //p')
  [ -n "$tests" ] || { echo 0; return; }
  awk -F'\t' 'NR == FNR { want[$1] = 1; next } ($1 in want) { n += split($3, f, " ") } END { print n + 0 }' \
    <(printf '%s\n' "$tests") "build/$preset/tests/device-functions.txt"
}
declare -A want_functions
for preset in "${device_presets[@]}"; do
  if [ "$preset" = asan ]; then
    want_functions[$preset]=$(expected_functions asan "${asan_filter[@]}")
  else
    want_functions[$preset]=$(expected_functions "$preset")
  fi
  [ "${want_functions[$preset]:-0}" -gt 0 ] || die "no device tests are registered in build/$preset"
done
rm -f build/device-*.log
# The device tests take 6 to 12 minutes in the VM here; the limit leaves room for a slower machine, and a
# hung test is stopped by its own time limit (and reported by hang-report.sh) well before it.
tests/softroce/vm-run.sh --timeout "${RDMALAB_VM_TIMEOUT:-2700}" --out "$root" -- tests/softroce/device-tests.sh 2>&1 |
  tee "$logs/vm.log"
vm_status=${PIPESTATUS[0]}
# Qt Test prints one PASS, FAIL! or SKIP line per function (and one for initTestCase and cleanupTestCase).
functions_in() {
  sed 's/\x1b\[[0-9;]*m//g' "build/device-$1.log" 2>/dev/null |
    sed -E 's/^[0-9]+: //' | # ctest -V's test number
    grep -E '^(PASS   |FAIL!  |SKIP   |XFAIL  |XPASS  ): [A-Za-z0-9_]+::[A-Za-z0-9_]+\(' |
    grep -vE '::(initTestCase|cleanupTestCase)\(' | sed 's/^[A-Z!]* *: //; s/(.*//' | sort -u | wc -l
}
declare -A ran_functions
for preset in "${device_presets[@]}"; do
  [ -f "build/device-$preset.log" ] && count "build/device-$preset.log"
  ran_functions[$preset]=$(functions_in "$preset")
done

# The curriculum once more on the test bed's second kernel, Linux 6.12, where rxe differs from 6.1 (an rkey
# without remote rights, the status of a failing request): every lab's kernel-dependent expectations and
# texts must hold on both (docs/claims.md V3, V4). The newest 6.12 kernel already cached, else Debian 12's
# newest (a one-time download).
kernel612_status=0
if [ $mode != quick ]; then
  kernel612=$(ls -1 "$vm_cache" 2>/dev/null | grep -E '^6\.12\.[0-9]+\+deb12-amd64$' | sort -V | tail -n1)
  [ -n "$kernel612" ] || kernel612=$(apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' 2>/dev/null |
    cut -d' ' -f1 | sed 's/^linux-image-//' | sort -V | tail -n1)
  step "the curriculum on Linux ${kernel612:-6.12} (tests/softroce/curriculum.sh)" \
    "VM kernel $([ -n "$kernel612" ] && [ -s "$vm_cache/$kernel612/vmlinuz" ] && echo warm || echo cold)"
  if [ -z "$kernel612" ]; then
    echo "no Linux 6.12 kernel package found (apt-cache search linux-image-6.12.*+deb12-amd64; run apt-get update)"
    kernel612_status=1
  else
    RDMALAB_VM_KERNEL_PKG=linux-image-$kernel612 tests/softroce/vm-run.sh --timeout 1200 --out "$root" -- \
      tests/softroce/curriculum.sh 2>&1 | tee "$logs/vm-6.12.log"
    kernel612_status=${PIPESTATUS[0]}
  fi
fi

if [ -n "$tidy_pid" ]; then
  step "clang-tidy (bugprone, performance, concurrency; new findings fail: tests/lint/tidy.sh), the rest" \
    "clang-tidy $cache_tidy"
  wait "$tidy_pid"
  tidy_status=$?
  cat "$logs/tidy.log"
  echo "clang-tidy took $(($(date +%s) - tidy_began)) s in all, at idle priority beside the rest of the run"
  [ $tidy_status -eq 0 ] || die "clang-tidy found something new (tests/lint/tidy.sh)"
fi

print_stages
printf '\n==== summary\n'
echo "host tests: $([ $host_status -eq 0 ] && echo passed || echo FAILED)"
for preset in "${device_presets[@]}"; do
  echo "device test functions run inside the VM ($preset build): ${ran_functions[$preset]} of ${want_functions[$preset]}"
done
echo "total: $passed passed, $failed failed, $skipped skipped (CTest tests: a device process counts once)"
[ $vm_status -eq 0 ] || die "the SoftRoCE test bed run failed (status $vm_status)"
[ $kernel612_status -eq 0 ] || die "the curriculum on Linux 6.12 failed (status $kernel612_status; $logs/vm-6.12.log)"
for preset in "${device_presets[@]}"; do
  [ "${ran_functions[$preset]}" -eq "${want_functions[$preset]}" ] ||
    die "not every device test function ran inside the VM ($preset: ${ran_functions[$preset]} of ${want_functions[$preset]})"
done
[ $host_status -eq 0 ] || die "host tests failed"
[ $failed -eq 0 ] || die "$failed tests failed"
echo "run-all: OK"
