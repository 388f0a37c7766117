#!/usr/bin/env bash
# Issue 18's measurements on the GPU machine: tests/gpu/on-device.sh tests/gpu/python.sh [problems...]
# Per problem: submit of pytorch.py, then triton.py with an empty Triton cache (its source's cache
# folder removed), then triton.py again (cached); wall seconds and exit codes in a table. Then
# reduction's Triton and CUDA solutions benched side by side at 100M. Logs go to $OUT.
set -uo pipefail
out="${OUT:-acceptance-logs}"
mkdir -p "$out"
judge=".device/bin/gpujudge"
problems=("$@")
[ ${#problems[@]} -gt 0 ] || problems=($(cd problems && ls -d */ | tr -d /))
"$judge" --color never run reduction solutions/reduction/pytorch.py >/dev/null 2>&1  # references, once
now() { date +%s.%N; }
timed() {  # prints "<seconds> <exit>"
  local start rc
  start=$(now)
  "$judge" --color never --timings submit "$@" >>"$out/python.log" 2>&1
  rc=$?
  echo "$(python3 -c "print(round($(now) - $start, 2))") $rc"
}
printf "| problem | pytorch.py s (exit) | triton.py, empty cache s (exit) | triton.py, cached s (exit) |\n|---|---:|---:|---:|\n" | tee "$out/python.md"
for p in "${problems[@]}"; do
  rm -rf "${GPUJUDGE_CACHE_DIR:?}/python"
  read -r a ra <<<"$(timed "$p" "solutions/$p/pytorch.py")"
  read -r b rb <<<"$(timed "$p" "solutions/$p/triton.py")"
  read -r c rc <<<"$(timed "$p" "solutions/$p/triton.py")"
  echo "| $p | $a ($ra) | $b ($rb) | $c ($rc) |" | tee -a "$out/python.md"
done
grep "^timings:" "$out/python.log" | tail -3
echo "== the same reduction in Triton and CUDA"
"$judge" --color never bench reduction solutions/reduction/triton.py solutions/reduction/warp_shuffle.cu \
  solutions/reduction/vectorized_float4.cu 2>&1 | tail -12
pgrep -fa gpujudge-runner && echo "LEFTOVER RUNNERS" || echo "no runner process left"
