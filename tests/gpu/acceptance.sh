#!/usr/bin/env bash
# The GPU checks behind the issues' "done when" lists, in one call on the GPU machine:
#   tests/gpu/on-device.sh tests/gpu/acceptance.sh [problems...]
# Logs go to $OUT (the device tool's folder) or ./acceptance-logs.
set -uo pipefail
out="${OUT:-acceptance-logs}"
mkdir -p "$out"
judge=".device/bin/gpujudge"
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=(reduction dot_product)

echo "== every solution gets its declared verdict: ${problems[*]}"
$judge --color never validate --run "${problems[@]}" 2>&1 | tee "$out/validate.log"

echo "== the judge and the tests on this machine"
.device/bin/gpujudge_tests 2>&1 | tail -3 | tee "$out/tests.log"
pgrep -fa gpujudge-runner && echo "LEFTOVER RUNNERS" || echo "no runner process left"

if [[ " ${problems[*]} " == *" reduction "* ]]; then
  s=solutions/reduction
  echo "== bench: baseline, default stream vs private stream, and two caching cheats"
  $judge --color never bench reduction $s/vectorized_float4.cu $s/private_stream.cu $s/caches_by_pointer.cu \
    $s/caches_by_size.cu 2>&1 | tee "$out/bench.log"
  echo "== five consecutive benches of one solution"
  for i in 1 2 3 4 5; do
    $judge --color never bench --json reduction $s/vectorized_float4.cu > "$out/repeat$i.json"
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(' '.join(f\"{e['source'].split('/')[-1]}:{f['test']}={f['median_us']:.2f}us\" for e in r['entries'] for f in e['figures']))" "$out/repeat$i.json"
  done
fi
