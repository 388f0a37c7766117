#!/bin/bash
# Repro: a sparse file in a student folder is read whole into memory by grade's scan (file_hash ->
# read_file_text); under a memory cap the grade dies with no gradebook rows for anyone else.
WT=$(cd "$(dirname "$0")/.." && pwd)
T=$(mktemp -d /tmp/rt-huge.XXXX); C=$T/class
mkdir -p $C/alice $C/zed
cp $WT/tests/fixtures/host_solutions/correct.cpp $C/alice/tiny_sum.cpp
truncate -s 6G $C/zed/tiny_sum.cpp     # 0 bytes on disk
( ulimit -v 3000000; time env GPUJUDGE_DATA_DIR=$T/data GPUJUDGE_CACHE_DIR=$T/cache $WT/build/bin/gpujudge --color never \
  --home $WT/tests/fixtures --backend host grade $C --out $T/run --no-bench ; echo "exit $?" ) 2>&1 | tail -8
ls $T/run 2>&1; rm -rf $T
