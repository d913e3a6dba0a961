#!/usr/bin/env bash
# clang-tidy (checks in .clang-tidy: bugprone, performance, concurrency) over the engine, labs and app
# sources of a configured build (its compile_commands.json). Fails on any finding that is not in
# tests/lint/tidy-baseline.txt, where each accepted finding is listed as "file: check" (no line number,
# so edits elsewhere in a file do not disturb it). Usage: tidy.sh BUILD_DIR [--update-baseline]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: tidy.sh BUILD_DIR [--update-baseline]}" && pwd)
baseline=$root/tests/lint/tidy-baseline.txt
cd "$root"
# clang-tidy analyses each source file with its own compile command; a unity build (the presets' default)
# lists only the merged files, and every source would be skipped as "not built".
if grep -q '^CMAKE_UNITY_BUILD:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "tidy: $build is a unity build; configure one without it: cmake --preset dev -B build/tidy -DCMAKE_UNITY_BUILD=OFF" >&2
  exit 2
fi

mapfile -t files < <(git ls-files 'engine/*.cpp' 'labs/*.cpp' 'app/*.cpp')
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# Two files at a time (the machines have two cores), each analysed again only when what the compiler sees
# of it changed (tests/lint/tidy_run.py keeps the results by a hash of the preprocessed file, the flags,
# .clang-tidy and clang-tidy's version). GCC-only warning flags in the compile commands are not clang's
# business; -Wno-overloaded-virtual as app/model/CMakeLists.txt says why for clang builds.
python3 tests/lint/tidy_run.py "$build" "$root" "${files[@]}" 2>/dev/null >"$out"
findings=$(sed -n "s#^$root/\([^:]*\):[0-9]*:[0-9]*: \(warning\|error\): .*\[\([a-z0-9.,-]*\)\]\$#\1: \3#p" "$out" | sort)

if [ "${2:-}" = "--update-baseline" ]; then
  { echo "# clang-tidy findings accepted when the check was introduced (tests/lint/tidy.sh); fix, never add."
    sort -u <<<"$findings"; } >"$baseline"
  echo "tidy: baseline written ($(grep -vc '^#' "$baseline") entries)"
  exit 0
fi

new=$(comm -23 <(sort -u <<<"$findings" | sed '/^$/d') <(grep -v '^#' "$baseline" | sort -u))
if [ -n "$new" ]; then
  echo "tidy: FAILED: new clang-tidy findings (fix them; the full text follows):" >&2
  echo "$new" >&2
  while IFS= read -r entry; do
    file=${entry%%: *}
    check=${entry#*: }
    grep -A3 "^$root/$file:[0-9]*:[0-9]*: \(warning\|error\): .*\[$check\]" "$out" >&2
  done <<<"$new"
  exit 1
fi
echo "tidy: ${#files[@]} files, $(sed '/^$/d' <<<"$findings" | wc -l) findings, none new"
