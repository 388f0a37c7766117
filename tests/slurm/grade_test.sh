#!/bin/bash
# `gpujudge grade --slurm` through a real one-node Slurm started here: munged, slurmctld and slurmd
# from a slurm.conf in a temporary folder (as root, without systemd). A small class is graded with
# the host backend as a job array held at submission (an sbatch option after --), one task is
# cancelled with scancel and reported, --retry-failed judges its submissions, and a rerun judges
# nothing new. Every daemon started here is stopped by its pid file. Exit 77 (skipped) without
# slurm-wlm and munge, or when not root.
# Usage: grade_test.sh <gpujudge> <fixtures>
set -euo pipefail
gpujudge=$1
fixtures=$2
for tool in slurmctld slurmd munged sbatch squeue scancel scontrol; do
  command -v "$tool" > /dev/null || PATH=$PATH:/usr/sbin command -v "$tool" > /dev/null || {
    echo "SKIPPED: $tool not installed (apt-get install slurm-wlm munge)"
    exit 77
  }
done
[ "$(id -u)" = 0 ] || { echo "SKIPPED: starting Slurm's daemons needs root"; exit 77; }
export PATH=$PATH:/usr/sbin

work=$(mktemp -d /tmp/gpujudge-slurm.XXXXXX)
stop_daemons() {
  for pid_file in "$work/slurmd.pid" "$work/slurmctld.pid" "$work/munge/munged.pid"; do
    if [ -s "$pid_file" ]; then
      pid=$(cat "$pid_file")
      kill "$pid" 2> /dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2> /dev/null || true
    fi
  done
  rm -rf "$work"
}
trap stop_daemons EXIT
fail() {
  echo "FAILED: $*"
  for log in "$work"/*.log; do echo "== $log"; tail -20 "$log"; done
  exit 1
}

# munge: a key and a socket of this test's own.
mkdir -p "$work/munge" "$work/socket" "$work/state" "$work/spool"
chmod 700 "$work/munge"
dd if=/dev/urandom of="$work/munge/munge.key" bs=1 count=1024 status=none
chmod 600 "$work/munge/munge.key"
munged --force --socket="$work/socket/munge" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge.log" --seed-file="$work/munge/seed"

node=$(hostname -s)
port=$((20000 + RANDOM % 20000))
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" << CONF
ClusterName=gpujudge-test
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/socket/munge
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MinJobAge=3600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -i || fail "slurmctld did not start"
slurmd || fail "slurmd did not start"
for _ in $(seq 60); do
  sinfo -h -o %T 2> /dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 0.5
done
sinfo -h -o %T | grep -qE '^(idle|mixed|allocated)' || fail "the node never became idle: $(sinfo 2>&1)"

# The class: six submissions, a bad input; slow ones, so that each task takes a while.
class=$work/class
run=$work/run
for student in alice bob carol dave erin fred; do mkdir -p "$class/$student"; done
cp "$fixtures/host_solutions/correct.cpp" "$class/alice/tiny_sum.cpp"
cp "$fixtures/host_solutions/off_by_one.cpp" "$class/bob/tiny_sum.cpp"
cp "$fixtures/host_solutions/crashes.cpp" "$class/carol/tiny_sum.cpp"
for student in dave erin fred; do
  { cat "$fixtures/host_solutions/slow.cpp"; echo "// $student"; } > "$class/$student/tiny_sum.cpp"
done
echo "notes" > "$class/fred/notes.txt"
grade() { "$gpujudge" --color never --home "$fixtures" --backend host grade "$@"; }

# Held at submission (an sbatch option after --): task 1 is cancelled before it can run.
out=$(grade "$class" --out "$run" --slurm --tasks 3 --no-bench --no-wait -- --hold) || fail "grade --slurm: $out"
echo "$out"
echo "$out" | grep -q "6 to judge" || fail "expected 6 to judge"
job=$(sed -n 's/.*"job_id": "\([0-9]*\)".*/\1/p' "$run/slurm/latest.json")
[ -n "$job" ] || fail "no job id in $run/slurm/latest.json"
scancel "${job}_1" || fail "scancel ${job}_1"
scontrol release "$job" || fail "scontrol release $job"
# A grade its cluster left incomplete exits 13, saying how to judge the rest.
status=0
out=$(grade --collect "$run" 2>&1) || status=$?
echo "$out"
[ "$status" = 13 ] || fail "grade --collect with a cancelled task exited $status, not 13"
echo "$out" | grep -q "grade: 2 submissions in Slurm tasks that failed were not judged: judge them with" ||
  fail "the cancelled task is not reported"
csv=$run/gradebook.csv
# Task 1 holds the submissions at positions 1 and 4: bob's and erin's.
# Without accounting (sacct) Slurm forgets a pending task once cancelled: its state is not known.
grep -q "^bob,tiny_sum,bob/tiny_sum.cpp,task_failed,.*Slurm task ${job}_1 " "$csv" || fail "bob: $(cat "$csv")"
grep -q "^erin,tiny_sum,erin/tiny_sum.cpp,task_failed," "$csv" || fail "erin: $(cat "$csv")"
grep -q "^alice,tiny_sum,alice/tiny_sum.cpp,accepted,4,4," "$csv" || fail "alice: $(cat "$csv")"
grep -q "^carol,tiny_sum,carol/tiny_sum.cpp,runtime_error," "$csv" || fail "carol: $(cat "$csv")"
grep -q "^fred,,fred/notes.txt,not_a_source," "$csv" || fail "fred's notes: $(cat "$csv")"

out=$(grade "$class" --out "$run" --slurm --no-bench --retry-failed) || fail "--retry-failed: $out"
echo "$out"
echo "$out" | grep -q "^2 to judge" || fail "--retry-failed should judge 2"
grep -q "^bob,tiny_sum,bob/tiny_sum.cpp,wrong_answer," "$csv" || fail "bob after the retry: $(cat "$csv")"
grep -q "^erin,tiny_sum,erin/tiny_sum.cpp,accepted," "$csv" || fail "erin after the retry: $(cat "$csv")"
grep -q "| tiny_sum | 6 | 4 | 1 | 1 |" "$run/summary.md" || fail "summary: $(cat "$run/summary.md")"

out=$(grade "$class" --out "$run" --slurm --no-bench) || fail "rerun: $out"
echo "$out"
echo "$out" | grep -q "^0 to judge, 6 unchanged" || fail "a rerun judged something"
echo "$out" | grep -q "submitted" && fail "a rerun submitted a job"

# A student folder whose name is not UTF-8 (a Latin-1 "jos\xe9" from a zip): the task judges the very
# file, and its row keeps the very name (the manifest's JSON text once turned the byte into U+FFFD).
jose=$(printf 'jos\xe9')
mkdir -p "$work/class2/$jose"
cp "$fixtures/host_solutions/correct.cpp" "$work/class2/$jose/tiny_sum.cpp"
out=$(grade "$work/class2" --out "$work/run2" --slurm --no-bench) || fail "grade --slurm of $jose: $out"
echo "$out"
LC_ALL=C grep -aq "^$jose,tiny_sum,$jose/tiny_sum.cpp,accepted,4,4," "$work/run2/gradebook.csv" ||
  fail "$jose: $(cat "$work/run2/gradebook.csv")"
echo "PASSED"
