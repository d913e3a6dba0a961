#!/usr/bin/env bash
# Every C and C++ file git tracks is formatted as .clang-format says (clang-format --dry-run -Werror).
set -euo pipefail
cd "$(dirname "$0")/../.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')
if ! clang-format --dry-run -Werror "${files[@]}"; then
  echo "format: FAILED: run clang-format -i on the files above" >&2
  exit 1
fi
echo "format: ${#files[@]} files formatted as .clang-format says"
