#!/usr/bin/env bash
# Issue 18's measurements on the GPU machine: tests/gpu/on-device.sh tests/gpu/python.sh [problems...]
# Per problem: submit of pytorch.py twice (the first computes the problem's references, baseline
# and × torch figures; the second is a learner's usual submit), then triton.py with no kernels kept
# ($GPUJUDGE_CACHE_DIR/triton-kernels removed; the number of kernels and launchers Triton compiled
# for it), then triton.py again (its kernels kept); wall seconds and exit codes. Then reduction's triton.py and its CUDA twin
# benched side by side, $ROUNDS times (3). Logs go to $OUT.
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
printf "| problem | pytorch.py, first s (exit) | pytorch.py s (exit) | triton.py, no kernels kept s (exit) | kernels (launchers) compiled | triton.py, kernels kept s (exit) |\n|---|---:|---:|---:|---:|---:|\n" | tee "$out/python.md"
for p in "${problems[@]}"; do
  rm -rf "${GPUJUDGE_CACHE_DIR:?}/triton-kernels"
  read -r a ra <<<"$(timed "$p" "solutions/$p/pytorch.py")"
  read -r a2 ra2 <<<"$(timed "$p" "solutions/$p/pytorch.py")"
  read -r b rb <<<"$(timed "$p" "solutions/$p/triton.py")"
  kept="${GPUJUDGE_CACHE_DIR:?}/triton-kernels"
  kernels="$(find "$kept" -name "*.cubin" | wc -l) ($(find "$kept" -name "__triton_launcher*.so" | wc -l))"
  read -r c rc <<<"$(timed "$p" "solutions/$p/triton.py")"
  echo "| $p | $a ($ra) | $a2 ($ra2) | $b ($rb) | $kernels | $c ($rc) |" | tee -a "$out/python.md"
done
grep "^timings:" "$out/python.log" | tail -3
echo "== the same kernel in Triton and CUDA (triton_twin.cu), ${ROUNDS:-3} rounds"
for ((round = 0; round < ${ROUNDS:-3}; round++)); do
  "$judge" --color never bench reduction solutions/reduction/triton.py solutions/reduction/triton_twin.cu 2>&1 |
    grep -E "^\| (triton|pytorch)"
done
pgrep -fa gpujudge-runner && echo "LEFTOVER RUNNERS" || echo "no runner process left"
