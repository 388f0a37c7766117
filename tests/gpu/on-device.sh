#!/usr/bin/env bash
# Runs on the GPU machine, from the repository root, with .device/ carried (see package.sh).
# The test binary knows the source tree as /work/main: link it there.
set -uo pipefail
mkdir -p /work && [ -e /work/main ] || ln -s "$PWD" /work/main
mkdir -p /work/main/.device-build/tests/cache  # the test binary's compile cache
# ...and its judge binaries in the build folder, which stays behind: point it at .device/.
for d in bin lib; do [ -e .device-build/$d ] || ln -s ../.device/$d .device-build/$d; done
export PATH="$PATH:/usr/local/cuda/bin" GPUJUDGE_CACHE_DIR="${GPUJUDGE_CACHE_DIR:-/tmp/gpujudge-cache}"
cache="$GPUJUDGE_CACHE_DIR"
[ -f .device/compile-cache.tar.xz ] && mkdir -p "$cache" && tar -C "$cache" -xJf .device/compile-cache.tar.xz
"$@"
