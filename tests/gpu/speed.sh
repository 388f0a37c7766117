#!/usr/bin/env bash
# Issue 8's measurements on the GPU machine, in one call:
#   tests/gpu/on-device.sh tests/gpu/speed.sh [--spread] [problems...]
# First the device self-checks, then per problem (the first accepted, non-baseline solution): a
# warm-up submit (references and the baseline's figures computed once), `run` of the same file
# (compiled by then), then wall times of submit (with timing), submit --no-bench, and a submission
# that fails its first example (the `init` starter), each on a copy nvcc has not seen; the judge's
# --timings line gives nvcc's share. At the end, the history of all those attempts.
# --spread adds five consecutive benches of one solution, CUB's % of the ceiling, and a
# private-stream solution (host clock). --lean keeps the warm-up, the timed submit and --no-bench (no
# device checks, no `run`, no failing starter), so that all 18 problems fit in one call of the GPU
# machine. Logs go to $OUT or ./acceptance-logs.
set -uo pipefail
out="${OUT:-acceptance-logs}"
mkdir -p "$out"
judge=".device/bin/gpujudge"
spread=0
lean=0
[ "${1:-}" = --spread ] && spread=1 && shift
[ "${1:-}" = --lean ] && lean=1 && shift
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=($(cd problems && ls -d */ | tr -d /))
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if [ $lean = 0 ]; then
  echo "== device self-checks"
  .device/bin/gpujudge_device_checks >"$out/device_checks.log" 2>&1
  echo "device checks exit $?: $(tail -1 "$out/device_checks.log")"
  grep -i "fail" "$out/device_checks.log" | head -5
fi

now() { date +%s.%N; }
# Runs the judge, appends its output to the log, prints "<seconds> <exit> <compile seconds>".
timed_run() {
  local start end rc
  start=$(now)
  "$judge" --color never --timings "$@" >>"$out/speed.log" 2>&1
  rc=$?
  end=$(now)
  local compile
  compile=$(grep -o 'compile [0-9.]* s' "$out/speed.log" | tail -1 | awk '{print $2}')
  echo "$(python3 -c "print($end - $start)") $rc ${compile:-?}"
}
first_accepted() {
  for f in solutions/$1/*.cu; do
    grep -q '^// expect: accepted' "$f" && ! grep -q '^// role: baseline' "$f" && { echo "$f"; return; }
  done
}

printf "| problem | solution | nvcc s | submit s (exit) | --no-bench s (exit) | fails 1st example s (exit) | first submit s | run, compiled s (exit) |\n|---|---|---:|---:|---:|---:|---:|---:|\n" | tee "$out/speed.md"
for p in "${problems[@]}"; do
  sol=$(first_accepted "$p")
  [ -n "$sol" ] || continue
  dir=$(dirname "$sol")
  read -r t0 r0 c0 <<<"$(timed_run submit "$p" "$sol")"
  t4=0 r4=- t3=0 r3=-
  [ $lean = 0 ] && read -r t4 r4 c4 <<<"$(timed_run run "$p" "$sol")"
  cp "$sol" "$dir/.speed_timed.cu" && echo "// $RANDOM$RANDOM timed" >>"$dir/.speed_timed.cu"
  cp "$sol" "$dir/.speed_nobench.cu" && echo "// $RANDOM$RANDOM no-bench" >>"$dir/.speed_nobench.cu"
  read -r t1 r1 c1 <<<"$(timed_run submit "$p" "$dir/.speed_timed.cu")"
  read -r t2 r2 c2 <<<"$(timed_run submit --no-bench "$p" "$dir/.speed_nobench.cu")"
  if [ $lean = 0 ]; then
    "$judge" init "$p" "$dir/.speed_fail.cu" --force >/dev/null && echo "// $RANDOM$RANDOM" >>"$dir/.speed_fail.cu"
    read -r t3 r3 c3 <<<"$(timed_run submit "$p" "$dir/.speed_fail.cu")"
  fi
  rm -f "$dir"/.speed_*.cu
  printf "| %s | %s | %s | %.1f (%s) | %.1f (%s) | %.1f (%s) | %.1f | %.1f (%s) |\n" "$p" "$(basename "$sol")" "$c2" "$t1" "$r1" "$t2" "$r2" "$t3" "$r3" "$t0" "$t4" "$r4" | tee -a "$out/speed.md"
done
grep "^timings:" "$out/speed.log" | tail -4
# submit and --no-bench over nvcc, per problem, and their medians
python3 - "$out/speed.md" <<'PY'
import statistics, sys
rows = [l.split("|")[1:-1] for l in open(sys.argv[1]) if l.startswith("| ") and not l.startswith("| problem")]
over = [(float(r[3].split()[0]) - float(r[2]), float(r[4].split()[0]) - float(r[2])) for r in rows if r[2].strip() != "?"]
if over:
    print("submit - nvcc median %.2f s (max %.2f); --no-bench - nvcc median %.2f s (max %.2f); %d problems" % (
        statistics.median(o[0] for o in over), max(o[0] for o in over),
        statistics.median(o[1] for o in over), max(o[1] for o in over), len(over)))
PY
echo "== gpujudge history (newest first)"
"$judge" --color never history >"$out/history.txt" 2>&1
echo "history exit $?: $(grep -c . "$out/history.txt") lines in $out/history.txt"
head -12 "$out/history.txt"

if [ $spread = 1 ]; then
  s=solutions/reduction
  echo "== bench: baseline, default stream, private stream"
  "$judge" --color never bench reduction $s/vectorized_float4.cu $s/private_stream.cu 2>&1 | tee "$out/bench.log"
  echo "== five consecutive benches of one solution (median µs per size; spread = max/min - 1)"
  tmp=$(mktemp -d)
  for i in 1 2 3 4 5; do "$judge" --color never bench --json reduction $s/vectorized_float4.cu >"$tmp/repeat$i.json"; done
  python3 tests/gpu/bench_spread.py "$tmp"/repeat?.json
fi
pgrep -fa gpujudge-runner && echo "LEFTOVER RUNNERS" || echo "no runner process left"
