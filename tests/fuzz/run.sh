#!/usr/bin/env bash
# Builds the libFuzzer targets (preset `fuzz`, clang, ASan+UBSan) and runs each for a bounded time on a seed
# corpus made from the repository's real files: every line of the recordings in tests/data for the trace
# reader, every lab file of the repository (labs/ and tests/data/labs*/, the malformed ones included) for
# the lab parser, every engine command written in the docs and
# the tests (one per file, and all of them as one session) for the engine's command parser, the recorded
# measurement tests/data/bench-compare.jsonl in pieces of 8 lines for the app's bench-event reader, every
# packet captured on the test bed's wire (tests/data/wire/*.pcap, one per file: editcap) for the RoCE v2
# decoder, plus
# the inputs kept in tests/fuzz/regressions/TARGET/ (each crash ever found, kept so it is tried first on
# every run).
# Fails when a target crashes, leaks or times out; the input is kept in build/fuzz/findings/.
#
# The inputs once kept for the retired lesson parser (tests/fuzz/regressions/fuzz_lesson) are seeds of the
# lab parser: both read YAML.
#
# usage: tests/fuzz/run.sh [SECONDS per target, default ${RDMALAB_FUZZ_SECONDS:-30}]
#        tests/fuzz/run.sh --budget SECONDS   (the time of all targets together, shared equally; two
#                                            targets run side by side, so it takes half as long)
set -uo pipefail
cd "$(dirname "$0")/../.."
targets=(fuzz_trace_line fuzz_lab fuzz_engine_command fuzz_bench_events fuzz_roce_frame)
if [ "${1:-}" = --budget ]; then
  seconds=$((${2:?usage: tests/fuzz/run.sh --budget SECONDS} / ${#targets[@]}))
  [ "$seconds" -gt 0 ] || seconds=1
else
  seconds=${1:-${RDMALAB_FUZZ_SECONDS:-30}}
fi
die() { printf 'fuzz: FAILED: %s\n' "$*" >&2; exit 1; }

cmake --preset fuzz >/dev/null || die "configure the fuzz preset"
# The targets named here, not the preset's list, so a new target cannot be run without being built.
cmake --build --preset fuzz --target "${targets[@]}" || die "build the fuzz targets"

work=build/fuzz/run
rm -rf "$work" && mkdir -p build/fuzz/findings
for target in "${targets[@]}"; do mkdir -p "$work/seeds/$target"; done
n=0
for f in tests/data/*.jsonl; do
  while IFS= read -r line; do
    n=$((n + 1)); printf '%s' "$line" >"$work/seeds/fuzz_trace_line/$n"
  done <"$f"
done
n=0
{ find labs tests/data/labs* -name '*.yaml' -type f; find tests/fuzz/regressions/fuzz_lesson -type f; } | sort | while IFS= read -r f; do
  n=$((n + 1)); cp "$f" "$work/seeds/fuzz_lab/$n-$(basename "$f")"
done
n=0
grep -ohE '\{"(id|cmd)":[^)]*\}' docs/*.md README.md tests/host/*.cpp tests/device/*.cpp tests/app/*.cpp | sort -u |
  while IFS= read -r line; do
    n=$((n + 1)); printf '%s\n' "$line" >"$work/seeds/fuzz_engine_command/$n"
  done
cat "$work"/seeds/fuzz_engine_command/* | grep -v '"quit"' >"$work/seeds/fuzz_engine_command/session"
split -l 8 -a 3 tests/data/bench-compare.jsonl "$work/seeds/fuzz_bench_events/bench-compare-"
for f in tests/data/wire/*.pcap; do
  editcap -c 1 "$f" "$work/seeds/fuzz_roce_frame/$(basename "$f")" >/dev/null || die "editcap (tshark's wireshark-common) split $f"
done

# One target on each core: the machines have two, and libFuzzer runs on one.
jobs=${RDMALAB_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -gt 2 ] && jobs=2
# Runs one target for its share of the time; its status is its exit status, its output in its log.
fuzz_one() {
  local target=$1 corpus=$work/corpus-$1
  mkdir -p "$corpus"
  local dirs=("$corpus" "$work/seeds/$target")
  [ -d "tests/fuzz/regressions/$target" ] && dirs+=("tests/fuzz/regressions/$target")
  build/fuzz/tests/fuzz/$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="build/fuzz/findings/$target-" "${dirs[@]}" >"$work/$target.log" 2>&1
}
declare -A status
running=()
for target in "${targets[@]}"; do
  printf -- '---- %s for %s s (%s seed files)\n' "$target" "$seconds" "$(ls "$work/seeds/$target" | wc -l)"
  fuzz_one "$target" &
  running+=("$target:$!")
  if [ ${#running[@]} -ge "$jobs" ]; then
    entry=${running[0]}; running=("${running[@]:1}")
    wait "${entry#*:}"; status[${entry%%:*}]=$?
  fi
done
for entry in "${running[@]}"; do wait "${entry#*:}"; status[${entry%%:*}]=$?; done

passed=0; failed=0
for target in "${targets[@]}"; do
  printf '\n---- %s\n' "$target"
  if [ "${status[$target]}" -eq 0 ]; then
    passed=$((passed + 1))
    grep -E '^stat::number_of_executed_units|^stat::new_units_added' "$work/$target.log" | sed 's/^/  /'
  else
    failed=$((failed + 1))
    tail -n 40 "$work/$target.log"
    echo "  input kept in: $(ls build/fuzz/findings/$target-* 2>/dev/null | tr '\n' ' ')"
  fi
done
printf '\nfuzz: %s passed, %s failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
