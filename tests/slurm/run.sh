#!/usr/bin/env bash
# tests/slurm/run.sh: `warplab batch --slurm` against a real Slurm, not a mock.
#
# Starts a single-node Slurm on this machine (munged, slurmctld and slurmd on 127.0.0.1, with a
# slurm.conf of its own in a temporary folder, free ports, nothing of the system's touched),
# grades a class of three (the reference solution; a kernel that does not compile; one that
# runs away until the per-student time limit stops it) with `warplab batch --slurm --chunk 1`
# (a job array of three tasks and a collection job after it), waits for the jobs, and checks
# that every student's results.json, the gradebook and the class charts' data are byte for
# byte those of a local `warplab batch` with the same seed. Then one student's results are
# lost and `--slurm --resume` regrades that one only, in one task.
#
# Slurm runs with the plugins that need nothing of the kernel's cgroups: proctrack/linuxproc
# (a job's processes found through /proc), task/none, no accounting; this works in the
# containers CI runs in. Needs root (slurmd starts jobs as their user) and Debian's packages
# slurmctld, slurmd, slurm-client and munge (installed by docker/install-deps.sh --slurm when
# missing). `make slurm-check` runs it.
#
# Environment: WARPLAB (default bin/warplab), SLURM_TEST_KEEP=1 keeps the folder for a look.
set -euo pipefail

cd "$(dirname "$0")/../.."
WARPLAB=${WARPLAB:-bin/warplab}
case "$WARPLAB" in /*) ;; *) WARPLAB="$PWD/$WARPLAB" ;; esac
say() { echo "slurm-test: $*"; }
fail() { echo "slurm-test: FAIL: $*" >&2; exit 1; }

[ -x "$WARPLAB" ] || fail "no warplab at $WARPLAB (make first, or set WARPLAB)"
[ "$(id -u)" -eq 0 ] || fail "needs root: slurmd starts a job's processes as the job's user"
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
if ! command -v nvcc >/dev/null 2>&1; then
  say "nvcc not found: SKIPPING (the class's kernels cannot be built), as the .cu end-to-end tests do"
  exit 0
fi

start=$(date +%s)
need=(slurmctld slurmd sbatch squeue sinfo munged)
missing=0
for t in "${need[@]}"; do
  PATH="$PATH:/usr/sbin:/sbin" command -v "$t" >/dev/null 2>&1 || missing=1
done
if [ "$missing" = 1 ]; then
  say "Slurm or munge is missing: installing (docker/install-deps.sh --slurm)"
  bash docker/install-deps.sh --slurm
fi
export PATH="$PATH:/usr/sbin:/sbin"

T=$(mktemp -d /tmp/warplab-slurm.XXXXXX)
chmod 755 "$T"
pids=()
cleanup() {
  local f
  for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/munged.pid"; do
    if [ -s "$f" ]; then
      kill "$(cat "$f")" 2>/dev/null || true
    fi
  done
  sleep 0.5
  for f in "$T/slurmd.pid" "$T/slurmctld.pid" "$T/munge/munged.pid"; do
    if [ -s "$f" ]; then
      kill -9 "$(cat "$f")" 2>/dev/null || true
    fi
  done
  if [ "${SLURM_TEST_KEEP:-0}" = 1 ]; then
    say "kept $T"
  else
    rm -rf "$T"
  fi
}
trap cleanup EXIT

# Ports nothing listens on: asked of the kernel (bind to port 0), else picked at random.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' \
    2>/dev/null || echo $((20000 + RANDOM % 20000))
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(free_port); done

# munge: a key of our own and a socket in the folder
mkdir -p "$T/munge" "$T/state" "$T/spool"
chmod 700 "$T/munge"
if command -v mungekey >/dev/null 2>&1; then
  mungekey -c -k "$T/munge/munge.key"
else
  dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
fi
chmod 600 "$T/munge/munge.key"
munged --socket="$T/munge/munge.socket" --key-file="$T/munge/munge.key" \
  --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
  --seed-file="$T/munge/munged.seed" --force

node=$(hostname -s 2>/dev/null || hostname)
cat > "$T/slurm.conf" <<EOF
# A single-node Slurm for tests/slurm/run.sh: everything in $T.
ClusterName=warplabtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF" -N "$node"
for _ in $(seq 1 60); do
  state=$(sinfo -h -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || { tail -20 "$T/slurmctld.log" "$T/slurmd.log" >&2; fail "the node did not come up (state '$state')"; }
say "Slurm up in $(( $(date +%s) - start )) s: node $node, ports $ctld_port and $slurmd_port"

# the class: a solution, a compile error, a runaway kernel (stopped by --timeout)
R="$T/class"
mkdir -p "$R/ann" "$R/bob" "$R/cat"
cp solutions/01-matrix-add/matrix_add.cu "$R/ann/"
cp tests/e2e/lab01/compile_error.cu "$R/bob/matrix_add.cu"
cat > "$R/cat/matrix_add.cu" <<'EOF'
__constant__ int BLOCK_X = 32;
__constant__ int BLOCK_Y = 8;
extern "C" __global__ void matrix_add(const float *a, const float *b, float *c, int nx, int ny)
{ while (1) c[0] = a[0]; }
EOF
opts=(--backend emu --seed 7 --timeout 20)
# the runaway kernel must run until --timeout stops it: left to the emulator's budget of 2e8
# warp-instructions a launch it may end first on a fast machine (and be graded, not stopped)
export WARPLAB_EMU_BUDGET=1000000000000000

# Wait until none of the jobs is in the queue; fail after a while.
wait_jobs() {
  local ids=$1 left
  for _ in $(seq 1 240); do
    left=$(squeue -h -j "$ids" 2>/dev/null | wc -l)
    [ "$left" -eq 0 ] && return 0
    sleep 0.5
  done
  squeue >&2 || true
  fail "jobs $ids still queued or running after 120 s"
}

say "the local batch"
"$WARPLAB" batch 01 "$R" --out "$T/local" -j 2 "${opts[@]}" > "$T/local.txt"
grep -q "3 students: 2 graded, 1 failed to grade" "$T/local.txt" || { cat "$T/local.txt"; fail "local batch"; }

say "the Slurm batch"
"$WARPLAB" batch 01 "$R" --out "$T/slurm" "${opts[@]}" --slurm --chunk 1 --sbatch-arg=--partition=test > "$T/submit.txt"
cat "$T/submit.txt"
array=$(sed -n 's/^Submitted job array \([0-9]*\) and the collection, job \([0-9]*\),.*/\1/p' "$T/submit.txt")
collect=$(sed -n 's/^Submitted job array \([0-9]*\) and the collection, job \([0-9]*\),.*/\2/p' "$T/submit.txt")
[ -n "$array" ] && [ -n "$collect" ] || fail "no job ids in warplab's answer"
grep -q "^3 students to grade in 3 Slurm tasks of up to 1" "$T/submit.txt" || fail "not 3 tasks"
wait_jobs "$array,$collect"

# every task and the collection ran, and said so in their logs
for i in 0 1 2; do
  log="$T/slurm/slurm/task-${array}_$i.log"
  [ -f "$log" ] || fail "no log of task $i"
  grep -q "^slice $i: 1 students" "$log" || { cat "$log"; fail "task $i did not grade its student"; }
done
clog="$T/slurm/slurm/collect-$collect.log"
[ -f "$clog" ] || fail "no log of the collection job"
grep -q "3 students: 2 graded, 1 failed to grade, 0 without results yet" "$clog" || { cat "$clog"; fail "collection"; }

# the same results as the local batch, byte for byte
same() {
  cmp -s "$T/local/$1" "$T/slurm/$1" || { diff "$T/local/$1" "$T/slurm/$1" | head -20 >&2; fail "$1 differs from the local batch's"; }
}
for s in ann bob cat; do same "$s/results.json"; done
same gradebook.csv
same charts/class.csv
for f in "$T"/local/charts/*.dat; do same "charts/$(basename "$f")"; done
grep -q '"score": 90.0' "$T/slurm/ann/results.json" || fail "ann: not 90 points"
grep -q "did not build" "$T/slurm/bob/results.json" || fail "bob: no build failure"
grep -q "grading stopped after 20 s: the submission hangs" "$T/slurm/cat/results.json" || fail "cat: not stopped"
if command -v gnuplot >/dev/null 2>&1; then
  [ -s "$T/slurm/charts/score.png" ] || fail "no score chart"
fi

say "a lost result, resubmitted with --resume"
rm "$T/slurm/ann/results.json"
"$WARPLAB" batch 01 "$R" --out "$T/slurm" "${opts[@]}" --slurm --chunk 1 --resume > "$T/resubmit.txt"
grep -q "^1 students to grade in 1 Slurm task of up to 1" "$T/resubmit.txt" || { cat "$T/resubmit.txt"; fail "not 1 task"; }
[ "$(cat "$T/slurm/slurm/students.txt")" = ann ] || fail "students.txt is not ann alone"
array=$(sed -n 's/^Submitted job array \([0-9]*\) and the collection, job \([0-9]*\),.*/\1/p' "$T/resubmit.txt")
collect=$(sed -n 's/^Submitted job array \([0-9]*\) and the collection, job \([0-9]*\),.*/\2/p' "$T/resubmit.txt")
wait_jobs "$array,$collect"
same ann/results.json
same gradebook.csv
"$WARPLAB" batch 01 "$R" --out "$T/slurm" --collect > "$T/collect.txt"
grep -q "0 without results yet" "$T/collect.txt" || fail "the collection by hand"

say "PASS: the Slurm batch equals the local one ($(( $(date +%s) - start )) s)"
echo "1 passed, 0 failed"
