#!/usr/bin/env bash
# A real Slurm run of a sharded sweep, on this machine.
#
# Brings up a single-node Slurm cluster from Debian's slurm-wlm and munge (its own munged, slurmctld and
# slurmd, on private ports and a private work folder), submits the sweep as a job array of SHARDS tasks
# plus a merge job that depends on the array (afterok), kills one array task in the middle of its runs
# and requeues it, then checks:
#   1. a `citysim merge` while the requeued task is pending fails (exit 1, runs missing);
#   2. the requeued task resumed: its second attempt skipped the runs its first attempt had finished;
#   3. the merge job's sweep.csv, points.csv, sweep.json and report.html equal a local `citysim sweep`
#      byte for byte.
# Prints PASS or FAIL lines and exits non-zero on any failure; stops every daemon it started.
#
#   Scripts/slurm-sweep.sh                                   # debug build, a small experiment (~20 s)
#   CITYSIM=.build/release/citysim EXPERIMENT=Scenarios/experiments/zone-size.yaml SHARDS=4 Scripts/slurm-sweep.sh
#   KEEP=1 Scripts/slurm-sweep.sh                            # keep the work folder (logs, state) afterwards
#
# Needs root (slurmd runs jobs as their user; munged runs as the munge user) and the packages
# slurm-wlm and munge (`apt-get install -y slurm-wlm munge`).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

BIN=$(realpath "${CITYSIM:-.build/debug/citysim}" 2>/dev/null) || BIN=""
SHARDS=${SHARDS:-4}
VICTIM=${VICTIM:-1}                       # the array task that is killed and requeued
CTLD_PORT=${CTLD_PORT:-16817}
SLURMD_PORT=${SLURMD_PORT:-16818}
WORK=$(mktemp -d /tmp/citysim-slurm.XXXXXX)
chmod 755 "$WORK"

say() { echo "slurm-sweep: $*"; }
fail() { echo "FAIL: $*"; FAILED=1; }
FAILED=0
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done; done
  if [ -n "${KEEP:-}" ]; then say "work folder kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

[ "$(id -u)" -eq 0 ] || { echo "FAIL: run as root (slurmd and munged are started here)"; exit 2; }
for tool in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool missing: apt-get install -y slurm-wlm munge"; exit 2; }
done
[ -x "$BIN" ] || { echo "FAIL: no citysim binary at ${CITYSIM:-.build/debug/citysim}: swift build first"; exit 2; }
say "citysim: $BIN ($("$BIN" --version))"
say "slurm: $(slurmctld -V), munge: $(munged --version 2>&1 | head -1)"

# --- the experiment -------------------------------------------------------------------------------
if [ -n "${EXPERIMENT:-}" ]; then
  EXPERIMENT=$(realpath "$EXPERIMENT")
else
  # Small enough for CI with a debug build: 2 policies × 2 zone sizes × 4 replications = 16 runs, each long
  # enough (12 h of smoke, about a second in a debug build) that the killed task is caught between its runs.
  mkdir -p "$WORK/experiment"
  cp Scenarios/smoke.yaml "$WORK/experiment/smoke.yaml"
  cat >"$WORK/experiment/slurm-check.yaml" <<'EOF'
name: slurm-check
scenario: smoke.yaml
replications: 4
set: ["duration_hours=12", "warmup_hours=0.5"]
grid:
  city.zone.side_km: [1, 2]
  dispatch.policy: [zone-fifo, nearest-idle]
metrics: [wait_s.p90, wait_s.mean, reject_share, served]
EOF
  EXPERIMENT=$WORK/experiment/slurm-check.yaml
fi
say "experiment: $EXPERIMENT, $SHARDS shards"

# --- munge: its own daemon and socket, the machine's key -----------------------------------------
mkdir -p "$WORK/munge"
chown munge:munge "$WORK/munge"
chmod 711 "$WORK/munge"
MUNGE_SOCKET=$WORK/munge/munge.socket
runuser -u munge -- munged --foreground --socket="$MUNGE_SOCKET" --key-file=/etc/munge/munge.key \
  --pid-file="$WORK/munge/munged.pid" --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/seed" \
  >"$WORK/munge/stdout.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 50); do [ -S "$MUNGE_SOCKET" ] && break; sleep 0.1; done
[ -S "$MUNGE_SOCKET" ] || { echo "FAIL: munged did not start"; cat "$WORK/munge/"*.log; exit 1; }

# --- slurm: one controller, one node with this machine's cores ------------------------------------
HOST=$(hostname -s)
mkdir -p "$WORK/state" "$WORK/spool" "$WORK/logs" "$WORK/out"
export SLURM_CONF=$WORK/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=citysim-check
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobRequeue=1
MinJobAge=3600
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=citysim-node NodeAddr=127.0.0.1 NodeHostname=$HOST CPUs=$(nproc) State=UNKNOWN
PartitionName=check Nodes=citysim-node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$WORK/slurmctld.stdout" 2>&1 &
PIDS+=($!)
slurmd -D -N citysim-node -f "$SLURM_CONF" >"$WORK/slurmd.stdout" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 100); do
  sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 0.2
done
sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' \
  || { echo "FAIL: the node did not come up"; tail -20 "$WORK/slurmctld.log" "$WORK/slurmd.log"; exit 1; }
say "cluster up: $(sinfo -h -o '%P %D node(s) %c CPUs %T')"

# --- the local reference --------------------------------------------------------------------------
say "local reference: citysim sweep (all runs, one process)"
"$BIN" sweep "$EXPERIMENT" --out "$WORK/local" >"$WORK/local.log" 2>&1 || { cat "$WORK/local.log"; echo "FAIL: local sweep"; exit 1; }

# --- submit: the array and the dependent merge ----------------------------------------------------
SHARED=$WORK/out/sweep
cat >"$WORK/shard.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=citysim-shard
#SBATCH --array=0-$((SHARDS - 1))
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --open-mode=append
#SBATCH --output=$WORK/logs/shard-%a.out
echo "attempt: task \$SLURM_ARRAY_TASK_ID restart \${SLURM_RESTART_COUNT:-0} on \$(hostname -s)"
exec "$BIN" sweep "$EXPERIMENT" --shard "\$SLURM_ARRAY_TASK_ID/\$SLURM_ARRAY_TASK_COUNT" --jobs 1 --out "$SHARED"
EOF
ARRAY=$(sbatch --parsable "$WORK/shard.sbatch") || { echo "FAIL: sbatch"; exit 1; }
MERGE=$(sbatch --parsable --dependency="afterok:$ARRAY" --job-name=citysim-merge --output="$WORK/logs/merge.out" \
  --wrap "exec '$BIN' merge --out '$WORK/out/merged' '$SHARED'") || { echo "FAIL: sbatch merge"; exit 1; }
say "submitted array job $ARRAY (tasks 0-$((SHARDS - 1))) and merge job $MERGE (afterok:$ARRAY)"

# --- kill one task in the middle of its runs and requeue it --------------------------------------
victim_records() { ls "$SHARED/runs" 2>/dev/null | awk -F. -v n="$SHARDS" -v v="$VICTIM" '$1 % n == v' | wc -l; }
VICTIM_RUNS=$(ls "$WORK/local/runs" | awk -F. -v n="$SHARDS" -v v="$VICTIM" '$1 % n == v' | wc -l)
KILLED_AFTER=""
for _ in $(seq 1 3000); do
  state=$(squeue -h -j "${ARRAY}_$VICTIM" -o '%T' 2>/dev/null)
  done_runs=$(victim_records)
  if [ "$state" = RUNNING ] && [ "$done_runs" -ge 1 ]; then
    scontrol requeue "${ARRAY}_$VICTIM" && KILLED_AFTER=$done_runs
    break
  fi
  [ -z "$state" ] && break
  sleep 0.1
done
if [ -z "$KILLED_AFTER" ]; then
  fail "could not catch task $VICTIM running with some but not all runs done (state '${state:-gone}', $done_runs runs)"
else
  say "task ${ARRAY}_$VICTIM killed and requeued (scontrol requeue) after $KILLED_AFTER of its $VICTIM_RUNS runs"
  # While it is pending again, the sweep is incomplete: merge must fail, not "succeed".
  "$BIN" merge --out "$WORK/out/early" "$SHARED" >"$WORK/early-merge.out" 2>"$WORK/early-merge.err"
  status=$?
  if [ "$status" -eq 1 ] && grep -q "runs missing" "$WORK/early-merge.err"; then
    echo "PASS: a merge before the requeued task finished exits 1: $(cat "$WORK/early-merge.err")"
  else
    fail "early merge exited $status: $(cat "$WORK/early-merge.err")"
  fi
  # Slurm holds a requeued job back for about two minutes (its begin time moves ahead). Waiting them out
  # shows nothing more here, so the task may start again at once; a real cluster keeps the delay. The
  # requeue completes asynchronously and sets the begin time when it does, so the begin time is moved
  # only once the task is pending for it (an earlier update is overwritten).
  for _ in $(seq 1 100); do
    reason=$(squeue -h -j "${ARRAY}_$VICTIM" -o '%T %r' 2>/dev/null)
    case "$reason" in
      "PENDING BeginTime") scontrol update JobId="${ARRAY}_$VICTIM" StartTime=now >/dev/null 2>&1 ;;
      RUNNING*|COMPLETED*|"") break ;;
    esac
    sleep 0.2
  done
  [ "$reason" = "PENDING BeginTime" ] && say "task ${ARRAY}_$VICTIM still held back; waiting for Slurm's requeue delay"
fi

# --- wait for the merge job -----------------------------------------------------------------------
for _ in $(seq 1 6000); do
  [ -z "$(squeue -h -j "$ARRAY,$MERGE" -o '%i' 2>/dev/null)" ] && break
  sleep 0.2
done
MERGE_STATE=$(scontrol show job "$MERGE" 2>/dev/null | grep -oE 'JobState=[A-Z_]+|ExitCode=[0-9:]+' | head -2 | tr '\n' ' ')
say "merge job $MERGE: $MERGE_STATE"
echo "$MERGE_STATE" | grep -q 'JobState=COMPLETED' || fail "merge job did not complete: $MERGE_STATE"
for task in $(seq 0 $((SHARDS - 1))); do
  line=$(scontrol show job "${ARRAY}_$task" 2>/dev/null | grep -oE 'JobState=[A-Z_]+|Restarts=[0-9]+|ExitCode=[0-9:]+' | tr '\n' ' ')
  say "task $task: $line"
done

# --- the requeued task resumed --------------------------------------------------------------------
if [ -n "$KILLED_AFTER" ]; then
  log=$WORK/logs/shard-$VICTIM.out
  attempts=$(grep -c '^attempt:' "$log")
  skipped=$(grep -oE 'skipped [0-9]+ already finished' "$log" | tail -1 | grep -oE '[0-9]+')
  if [ "$attempts" -ge 2 ] && [ -n "$skipped" ] && [ "$skipped" -ge "$KILLED_AFTER" ]; then
    echo "PASS: task $VICTIM ran $attempts times; the last attempt skipped $skipped finished runs ($KILLED_AFTER were done when it was killed)"
  else
    fail "task $VICTIM: $attempts attempts, skipped '${skipped:-?}' (expected >= $KILLED_AFTER)"
  fi
  say "log of task $VICTIM:"; sed 's/^/    /' "$log"
fi

# --- byte for byte --------------------------------------------------------------------------------
for file in sweep.csv points.csv sweep.json report.html; do
  if cmp -s "$WORK/local/$file" "$WORK/out/merged/$file"; then
    echo "PASS: $file of the Slurm merge equals the local sweep's ($(wc -c <"$WORK/local/$file") bytes, sha256 $(sha256sum "$WORK/local/$file" | cut -c1-16))"
  else
    fail "$file differs between the Slurm merge and the local sweep"
  fi
done
records=$(ls "$SHARED/runs" | wc -l)
say "$records run records in the shared folder; merge log: $(tr '\n' ' ' <"$WORK/logs/merge.out")"

if [ "$FAILED" -eq 0 ]; then echo "PASS: slurm sweep"; else echo "FAIL: slurm sweep"; KEEP=1; fi
exit "$FAILED"
