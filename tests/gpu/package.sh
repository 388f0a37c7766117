#!/usr/bin/env bash
# Builds a Release copy of gpujudge for a GPU machine that has no Debian packages and packs what
# it needs to run into .device/ (bin/ and lib/, stripped): carry that folder to the machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cmake -S "$root" -B "$root/.device-build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/.device-build"
rm -rf "$root/.device"
mkdir -p "$root/.device"
cp -r "$root/.device-build/bin" "$root/.device-build/lib" "$root/.device/"
cp "$root/.device-build/tests/gpujudge_tests" "$root/.device/bin/"
strip "$root/.device/bin/"*
du -sh "$root/.device"
