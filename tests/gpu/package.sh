#!/usr/bin/env bash
# Builds a Release copy of gpujudge for a GPU machine that has no Debian packages and packs what
# it needs to run into .device/ (bin/ and lib/, stripped; share/ for serve's page): carry that
# folder to the machine.
# With --with-cache it also compiles every file in solutions/ for sm_90 (the H100/H200 arch) into a
# compressed compile cache, so the GPU machine's minutes go to running, not to nvcc (on-device.sh
# unpacks it; a different nvcc there only means cache misses).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cmake -S "$root" -B "$root/.device-build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$root/.device-build"
rm -rf "$root/.device"
mkdir -p "$root/.device"
cp -r "$root/.device-build/bin" "$root/.device-build/lib" "$root/.device/"
cp "$root/.device-build/tests/gpujudge_tests" "$root/.device-build/tests/gpujudge_device_checks" \
  "$root/.device-build/tests/gpujudge_python_tests" "$root/.device/bin/"
strip "$root/.device/bin/"*
# serve: Debian builds cpp-httplib as a shared library (with OpenSSL, zlib and brotli): carry it and
# those beside the binaries (found through their RPATH); then the page and the JavaScript it loads.
ldd "$root/.device-build/bin/gpujudge" | awk '/lib(cpp-httplib|ssl|crypto|brotli[a-z]*)\.so/ {print $3}' |
  xargs -I{} cp -L {} "$root/.device/lib/"
# The runner's sandbox: bwrap beside the binaries, its libraries (libcap, libselinux, libpcre2) in
# lib/, where gpujudge points LD_LIBRARY_PATH when it starts a bwrap it found there
# (judge/process/sandbox.cpp); libseccomp is linked statically.
cp -L /usr/bin/bwrap "$root/.device/bin/"
ldd /usr/bin/bwrap | awk '$3 ~ /^\// && $1 !~ /^(libc|libm|libpthread|libdl)\.so|^ld-linux/ {print $3}' |
  xargs -I{} cp -L {} "$root/.device/lib/"
mkdir -p "$root/.device/share/gpujudge"
cp -r "$root/judge/serve/page" "$root/.device/share/gpujudge/"
# The files judge/serve/page_assets.cpp serves:
for file in codemirror/lib/codemirror.js codemirror/lib/codemirror.css codemirror/mode/clike/clike.js \
            codemirror/mode/python/python.js codemirror/addon/edit/matchbrackets.js marked/marked.min.js; do
  install -D -m 644 "/usr/share/javascript/$file" "$root/.device/share/javascript/$file"
done
# The GPU machine's Python has no PyYAML: tests/gpu/triton_first_call.py reads problem.yaml with a
# pure-Python copy of this machine's, where it has one.
if yaml_dir="$(python3 -c 'import os, yaml; print(os.path.dirname(yaml.__file__))' 2>/dev/null)"; then
  mkdir -p "$root/.device/pylib" && cp -r "$yaml_dir" "$root/.device/pylib/"
  rm -rf "$root/.device/pylib/yaml/__pycache__" "$root/.device/pylib/yaml/"_yaml*.so
fi
if [ "${1:-}" = --with-cache ]; then
  cache="$(mktemp -d)"
  GPUJUDGE_CACHE_DIR="$cache" "$root/.device/bin/gpujudge" --color never validate >/dev/null
  tar -C "$cache" -cf - lib | xz -T0 -6 >"$root/.device/compile-cache.tar.xz"
  rm -rf "$cache"
fi
du -sh "$root/.device"
