#!/usr/bin/env bash
# The H100 figures behind `gpujudge path` and the README's "Getting faster" table, in pieces that fit the
# GPU machine's 10-minute calls: `bench --json` per problem into $OUT/bench/<problem>.json.
#   tests/gpu/on-device.sh tests/gpu/measure.sh [problems...]     (default: all)
# Then here, with every problem's file fetched into one folder:
#   tests/gpu/measure.sh --merge DIR > solutions/measured-h100.json && tools/speed_table.py --write
# (the merged file is what `gpujudge bench --all --json` prints: one array of the problems' reports).
set -uo pipefail
if [ "${1:-}" = --merge ]; then
  python3 - "$2" <<'PY'
import json, pathlib, sys
reports = [json.loads(p.read_text()) for p in sorted(pathlib.Path(sys.argv[1]).glob("*.json"))]
print(json.dumps(reports, indent=2))
PY
  exit
fi
out="${OUT:-acceptance-logs}/bench"
mkdir -p "$out"
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=($(cd problems && ls -d */ | tr -d /))
for p in "${problems[@]}"; do
  start=$(date +%s)
  .device/bin/gpujudge --color never bench "$p" --json --min-time 0.5 --budget 1.5 >"$out/$p.json" 2>>"$out/errors.log"
  echo "$p: exit $? in $(( $(date +%s) - start )) s"
done
