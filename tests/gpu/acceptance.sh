#!/usr/bin/env bash
# The GPU checks behind the issues' "done when" lists, in one call on the GPU machine:
#   tests/gpu/on-device.sh tests/gpu/acceptance.sh [--bench] [problems...]
# --bench first runs the measurement checks on Reduction (and the test binary at the end); then
# every solution of each problem is judged (validate --run), problem by problem, so a call cut
# short still returns what it finished.
# Logs go to $OUT (the device tool's folder) or ./acceptance-logs.
set -uo pipefail
out="${OUT:-acceptance-logs}"
mkdir -p "$out"
judge=".device/bin/gpujudge"
bench=0
[ "${1:-}" = --bench ] && bench=1 && shift
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(reduction dot_product)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.log"
nvcc --version | tail -1

if [ $bench = 1 ]; then
  s=solutions/reduction
  tmp="$(mktemp -d)"
  echo "== bench: baseline; default stream vs private stream (returning at once, or after waiting for it); a copy that synchronises; two caching cheats"
  sed 's|^extern "C" void solve.*|&\n    struct sync_on_return { ~sync_on_return() { cudaDeviceSynchronize(); } } at_return;|' \
    $s/vectorized_float4.cu >"$tmp/vectorized_float4_synchronises.cu"
  sed 's|^\( *\)reduce_float4_kernel<<<.*stream>>>.*|&\n\1cudaStreamSynchronize(stream);|' \
    $s/private_stream.cu >"$tmp/private_stream_waits_for_it.cu"
  cp $s/vectorized_float4.cu "$tmp/"  # which private_stream.cu includes
  $judge --color never bench reduction $s/vectorized_float4.cu $s/private_stream.cu "$tmp/private_stream_waits_for_it.cu" \
    "$tmp/vectorized_float4_synchronises.cu" $s/caches_by_pointer.cu $s/caches_by_size.cu 2>&1 | tee "$out/bench.log"
  echo "== five consecutive benches of one solution (median µs per size; spread = max/min - 1)"
  for i in 1 2 3 4 5; do
    $judge --color never bench --json reduction $s/vectorized_float4.cu >"$tmp/repeat$i.json"
  done
  python3 tests/gpu/bench_spread.py "$tmp"/repeat?.json
fi

echo "== every solution gets its declared verdict"
for p in "${problems[@]}"; do
  start=$SECONDS
  $judge --color never validate --run "$p" 2>&1 | tee -a "$out/validate.log"
  echo "($p: $((SECONDS - start)) s)"
done
pgrep -fa gpujudge-runner && echo "LEFTOVER RUNNERS" || echo "no runner process left"

if [ $bench = 1 ]; then
  echo "== the judge's own tests on this machine"
  .device/bin/gpujudge_tests -r compact >"$out/tests.log" 2>&1
  grep -E "failed|FAILED" "$out/tests.log" | head -30 || tail -1 "$out/tests.log"
fi
