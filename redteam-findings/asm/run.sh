#!/bin/bash
WT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p /tmp/rt-asm-secret; chmod 700 /tmp/rt-asm-secret
printf 'SECRET-LINE-1 grader token=abc123\nSECRET-LINE-2\nSECRET-LINE-3\n' > /tmp/rt-asm-secret/grader_key.txt
T=$(mktemp -d)
cd "$(dirname "$0")"
env GPUJUDGE_DATA_DIR=$T/d GPUJUDGE_CACHE_DIR=$T/c $WT/build/bin/gpujudge --home $WT asm reduction reads_any_file.cu --ptx --arch sm_90 | grep -n "SECRET" 
