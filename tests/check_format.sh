#!/usr/bin/env bash
# The judge's own C++ and CUDA (harness/, judge/, tests/ without fixtures) must be as .clang-format
# writes it. Exit 77 (reported as skipped by CTest) where clang-format is not installed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if ! command -v clang-format >/dev/null; then
  echo "clang-format not installed: format check skipped"
  exit 77
fi
cd "$root"
mapfile -t files < <(find harness judge tests -path tests/fixtures -prune -o \
  -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \) -print | sort)
if ! clang-format --dry-run --Werror "${files[@]}"; then
  echo "not formatted: run clang-format -i on the files above"
  exit 1
fi
echo "${#files[@]} files formatted as .clang-format says"
