#!/usr/bin/env bash
# The GPU checks of `profile`, in one call on the GPU machine (ncu on PATH, counters readable):
#   tests/gpu/on-device.sh tests/gpu/profile.sh
# Three Reduction solutions of different speed, one solution each of Softmax and Histogramming,
# then two side by side (--compare) and one as JSON. Everything printed goes to $OUT/profile.log
# (the device tool's folder) or ./profile-logs/profile.log, the JSON to profile.json beside it.
set -uo pipefail
out="${OUT:-profile-logs}"
mkdir -p "$out"
export GPUJUDGE_DATA_DIR="${GPUJUDGE_DATA_DIR:-$(mktemp -d)}"  # a fresh history: the ceiling is measured
judge=(.device/bin/gpujudge --color never)
r=solutions/reduction
exec > >(tee "$out/profile.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ncu --version | tail -1
for file in $r/shared_memory_tree.cu $r/warp_shuffle.cu $r/vectorized_float4.cu \
  solutions/softmax/online_shared_tree.cu solutions/histogramming/shared_privatized.cu; do
  problem="$(basename "$(dirname "$file")")"
  echo "== profile $problem $file"
  start=$SECONDS
  "${judge[@]}" -v profile "$problem" "$file" 2>"$out/stderr.txt"
  echo "(exit $?, $((SECONDS - start)) s)"
  grep -E '\] ncu: |timings:' "$out/stderr.txt"  # ncu's command lines, and where the time went
  grep -v -E '\] (ncu|runner): |timings:' "$out/stderr.txt" | tail -20
done
echo "== profile --compare"
"${judge[@]}" profile reduction --compare $r/shared_memory_tree.cu $r/vectorized_float4.cu
echo "(exit $?)"
echo "== profile --json"
"${judge[@]}" profile --json reduction $r/warp_shuffle.cu >"$out/profile.json"
echo "(exit $?)"
ls -la "$GPUJUDGE_DATA_DIR/profiles"
pgrep -fa 'gpujudge-runner|ncu' && echo "LEFTOVER PROCESSES" || echo "no runner or ncu process left"
rm -f "$out/stderr.txt"
