#!/usr/bin/env bash
# The issue's speed check for `gpujudge grade`, on a GPU machine (through on-device.sh): a class of
# 100 reduction submissions — solutions/reduction/ (accepted, wrong, slow, crashing, hanging) and
# variations of them (a comment appended: other bytes, so each is compiled and judged) — graded on
# every GPU; prints the grade's own figures (submissions per minute, compile vs GPU time) and leaves
# the gradebook, leaderboard and summary in $OUT (or /tmp/grade-class-grade).
# Usage: tests/gpu/grade_class.sh [gpujudge] [count]
set -euo pipefail
gpujudge=${1:-.device/bin/gpujudge}
count=${2:-100}
class=/tmp/grade-class
run=${OUT:-/tmp}/grade-class-grade
rm -rf "$class" "$run"
mapfile -t sources < <(ls solutions/reduction/*.cu)
for ((i = 0; i < count; ++i)); do
  source=${sources[$((i % ${#sources[@]}))]}
  student=$(printf 'student%03d' "$i")
  mkdir -p "$class/$student"
  { cat "$source"; echo "// $student: $(basename "$source")"; } > "$class/$student/reduction.cu"
done
time "$gpujudge" --color never grade "$class" --out "$run"
echo "== a rerun judges nothing new"
"$gpujudge" --color never grade "$class" --out "$run" | head -1
