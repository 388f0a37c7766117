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
  echo "== bench: baseline, default stream vs private stream, and two caching cheats"
  $judge --color never bench reduction $s/vectorized_float4.cu $s/private_stream.cu $s/caches_by_pointer.cu \
    $s/caches_by_size.cu 2>&1 | tee "$out/bench.log"
  echo "== five consecutive benches of one solution, each followed by one with the write-only L2 flush"
  for i in 1 2 3 4 5; do
    for flush in write-read write; do
      GPUJUDGE_L2_FLUSH=$flush $judge --color never bench --json reduction $s/vectorized_float4.cu >"$tmp/repeat$i-$flush.json"
      python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(sys.argv[2], ' '.join(f\"{e['source'].split('/')[-1]}:{f['test']}={f['median_us']:.2f}us\" for e in r['entries'] for f in e['figures']))" "$tmp/repeat$i-$flush.json" $flush
    done
  done
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
  grep -E "failed|FAILED" "$out/tests.log" | head -30
fi
