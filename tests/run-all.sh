#!/usr/bin/env bash
# Sets everything up and runs every test: installs the Debian packages, checks the formatting, builds the
# dev, asan+ubsan and tsan presets, runs the host tests of all three and the app's engine in a VM it boots
# itself (ctest -L vm), runs clang-tidy (new findings fail),
# runs each fuzz target for a bounded time (tests/fuzz/run.sh), then boots the SoftRoCE test bed
# (tests/softroce/) and runs every device test inside it, in the dev and asan builds. Fails when any test
# or check fails, when the VM run fails, or when the device tests did not run.
#
# In CI (CI=true), or with --fresh-machine, the dev preset is built and host-tested inside a minimal Debian 12
# root that has only what install-deps.sh installs, and the .deb is built and installed there
# (tests/fresh-machine/check.sh, needs root); the device tests then run that same build. Elsewhere the dev
# preset builds on this machine.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
start=$(date +%s)
fresh=0
case ${RDMALAB_FRESH_MACHINE:-${CI:-}} in 1 | true | yes) fresh=1 ;; esac
for arg in "$@"; do
  case $arg in
    --fresh-machine) fresh=1 ;;
    *) echo "usage: tests/run-all.sh [--fresh-machine]" >&2; exit 2 ;;
  esac
done

# Each step says when it began (seconds since the start), so a slow run shows where its time went.
step() { printf '\n==== %s (at %ss)\n' "$*" "$(( $(date +%s) - start ))"; }
die() { printf '\nrun-all: FAILED: %s\n' "$*" >&2; exit 1; }

# ccache (CMakeLists.txt uses it when installed): paths under the clone are hashed relative to it, so a
# fresh clone in another directory reuses the previous run's objects.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=true

step "dependencies"
resources/scripts/install-deps.sh || die "installing dependencies"

step "formatting (clang-format --dry-run -Werror)"
tests/lint/format.sh || die "formatting (tests/lint/format.sh)"

passed=0; failed=0; skipped=0
# Adds the counts of one ctest run (its output in $1) to the totals; returns ctest's status.
count() {
  local log=$1 total fail skip
  sed -i 's/\x1b\[[0-9;]*m//g' "$log" # CTest colours its summary on some terminals
  total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$log" | tail -1)
  fail=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  skip=$(grep -c '(Skipped)' "$log" || true)
  total=${total:-0}; fail=${fail:-0}
  passed=$((passed + total - fail - skip)); failed=$((failed + fail)); skipped=$((skipped + skip))
}

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
host_status=0
host_presets=(dev asan tsan)
if [ $fresh -eq 1 ]; then
  step "fresh-machine check: a minimal Debian 12 root builds dev, passes the host tests, installs the .deb"
  tests/fresh-machine/check.sh || die "the fresh-machine check (tests/fresh-machine/check.sh)"
  count build/fresh-host-dev.log
  host_presets=(asan tsan)
fi

for preset in "${host_presets[@]}"; do
  step "configure and build ($preset)"
  cmake --preset "$preset" >/dev/null || die "configure $preset"
  cmake --build --preset "$preset" || die "build $preset"
done

for preset in "${host_presets[@]}"; do
  step "host tests ($preset): device tests are skipped here and run in the test bed below"
  ctest --preset "$preset" -L host 2>&1 | tee "$logs/host-$preset.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || host_status=1
  count "$logs/host-$preset.log"
done

# The app boots the SoftRoCE VM itself (rdmalab --engine vm) and runs the Write lesson in it: one VM boot, on
# the dev build (the tests labelled vm; the VM sees this checkout as the device tests below do).
step "the app's engine in a SoftRoCE VM it boots itself (ctest -L vm, dev)"
ctest --test-dir build/dev -L vm --output-on-failure 2>&1 | tee "$logs/vm-host.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || host_status=1
count "$logs/vm-host.log"

step "clang-tidy (bugprone, performance, concurrency; new findings fail: tests/lint/tidy.sh)"
tests/lint/tidy.sh build/dev || die "clang-tidy found something new (tests/lint/tidy.sh)"

step "fuzzing: each libFuzzer target for ${RDMALAB_FUZZ_SECONDS:-30} s (tests/fuzz/run.sh)"
tests/fuzz/run.sh || die "a fuzz target found a crash, leak or time-out (input kept in build/fuzz/findings)"

step "device tests inside the SoftRoCE test bed (qemu TCG, rdma_rxe on lo)"
device_count=$(ctest --test-dir build/dev -L device -N | sed -n 's/^Total Tests: //p')
asan_device_count=$(ctest --test-dir build/asan -L device -LE slow -E 'tst_app_|tst_bench_' -N | sed -n 's/^Total Tests: //p')
[ "${device_count:-0}" -gt 0 ] || die "no device tests are registered"
# The checkout is mounted writable at its own path in the VM (it may live under /tmp, which is a tmpfs
# there), so CTest can write its logs and the results come back.
rm -f build/device-dev.log build/device-asan.log
# The device tests take 5 to 11 minutes in the VM here; the limit leaves room for a slower machine, and a
# hung test is stopped by its own CTest timeout (and reported by hang-report.sh) well before it.
tests/softroce/vm-run.sh --timeout "${RDMALAB_VM_TIMEOUT:-2700}" --out "$root" -- tests/softroce/device-tests.sh 2>&1 |
  tee "$logs/vm.log"
vm_status=${PIPESTATUS[0]}
for preset in dev asan; do
  if [ -f "build/device-$preset.log" ]; then
    count "build/device-$preset.log"
  fi
done
ran_in() { # number of tests a device log says ran
  sed 's/\x1b\[[0-9;]*m//g' "build/device-$1.log" 2>/dev/null | sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' | tail -1
}
ran_dev=$(ran_in dev); ran_asan=$(ran_in asan)
ran_dev=${ran_dev:-0}; ran_asan=${ran_asan:-0}

printf '\n==== summary (%ss)\n' "$(( $(date +%s) - start ))"
echo "host tests: $([ $host_status -eq 0 ] && echo passed || echo FAILED)"
echo "device tests run inside the VM: $ran_dev of $device_count (dev build), $ran_asan of $asan_device_count (asan build)"
echo "total: $passed passed, $failed failed, $skipped skipped"
[ $vm_status -eq 0 ] || die "the SoftRoCE test bed run failed (status $vm_status)"
[ "$ran_dev" -eq "$device_count" ] && [ "$ran_asan" -eq "$asan_device_count" ] ||
  die "not every device test ran inside the VM (dev $ran_dev/$device_count, asan $ran_asan/$asan_device_count)"
[ $host_status -eq 0 ] || die "host tests failed"
[ $failed -eq 0 ] || die "$failed tests failed"
echo "run-all: OK"
