#!/usr/bin/env bash
# On the GPU machine (through on-device.sh): every file that declares `// expect: rejected` is
# submitted alone, each with a fresh history and cache (an attack must not spoil the next one's
# judgement), then the processes left and the history's records are listed. Then the judge's
# speed: submit and --no-bench, with and without the sandbox. Logs go to $OUT.
set -uo pipefail
out="${OUT:-acceptance-logs}"
mkdir -p "$out"
judge="$PWD/.device/bin/gpujudge"
for file in $(grep -l "expect: rejected" solutions/*/*.cu); do
  problem=$(basename "$(dirname "$file")")
  home=$(mktemp -d)
  start=$SECONDS
  GPUJUDGE_DATA_DIR="$home/data" timeout 300 "$judge" --color never submit "$problem" "$file" >"$home/out" 2>&1
  code=$?
  echo "== $file: exit $code, $((SECONDS - start)) s"
  tail -4 "$home/out" | cut -c1-300 | sed 's/^/    /'
  GPUJUDGE_DATA_DIR="$home/data" "$judge" --color never history "$problem" 2>&1 | tail -3 | sed 's/^/    history: /'
  cp "$home/out" "$out/$(basename "$file").log"
done
echo "== processes left"
ps -eo pid,ppid,args | grep -vE "ps -eo|grep|bash|on-device|attacks.sh|sleep 0" | tail -n +2 | head -20
echo "== speed (wall seconds): submit and --no-bench, sandboxed and not"
for args in "submit reduction solutions/reduction/vectorized_float4.cu" "submit --no-bench reduction solutions/reduction/vectorized_float4.cu" \
            "submit batch_normalization solutions/batch_normalization/cooperative_shifted_sums.cu"; do
  for flag in "" "--no-sandbox"; do
    start=$EPOCHREALTIME
    "$judge" --color never $flag $args >/dev/null 2>&1
    code=$?
    echo "$args $flag: exit $code, $(python3 -c "print(round($EPOCHREALTIME - $start, 2))") s"
  done
done
