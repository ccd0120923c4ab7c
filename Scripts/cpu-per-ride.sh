#!/usr/bin/env bash
# Server CPU per durable ride: a fresh `citysim serve` (SQLite, FULL sync) under `citysim load --mode burst`
# (CLIENTS clients, paced at RATE ride requests/s, SECONDS s after 2 s warm-up). The server's utime+stime
# (/proc/PID/stat) is read when the load has set its accounts up and when it ends, and divided by the rides
# acknowledged. Prints one TSV line:
#   label rate count per_s p50_ms p99_ms server_cpu_s acknowledged us_per_ride load_before load_after commands_per_commit
#   us_per_ride_load_only client_us_per_ride
# (commands_per_commit: command-log commands per commit over the same window, from GET /metrics: group commit's
# batching. us_per_ride counts the server's CPU up to the end of the load client, so it includes the end-state
# check's paged reads of every ride, as the earlier figures did; us_per_ride_load_only stops when the load ends
# and the check begins, the figure of serving the rides alone; client_us_per_ride: the load generator's own CPU
# per ride over that same window, since it shares the machine with the server.)
#   Scripts/cpu-per-ride.sh after .build/release/citysim            # 500 clients at 5,000/s for 30 s
#   RATE= Scripts/cpu-per-ride.sh closed /tmp/base/citysim          # closed loop (back to back)
#   CITYSIM_COMMIT_DELAY_MS=10 Scripts/cpu-per-ride.sh delay BIN   # the server's config keys by their variables
#   LOAD_BIN=/tmp/old/citysim Scripts/cpu-per-ride.sh old-client BIN   # another build's `citysim load` as the client
#   DB_DIR=/dev/shm Scripts/cpu-per-ride.sh shm BIN   # database on tmpfs: fdatasync costs nothing and waits for no
#     disk, so other processes' I/O does not change the batching (a diagnostic, not a durable figure)
#   SERVE_CONFIG=/tmp/old-tree/Scenarios/service-load.yaml LOAD_BIN=.build/release/citysim Scripts/cpu-per-ride.sh old /tmp/old/citysim
#     # an older build's server with its own config file (before Service/ existed), under this build's client
set -uo pipefail
cd "$(dirname "$0")/.."
LABEL=${1:-run}; BIN=${2:-.build/release/citysim}
PORT=${PORT:-18401}; RATE=${RATE-5000}; SECONDS_=${SECONDS_:-30}; CLIENTS=${CLIENTS:-500}
W=$(mktemp -d "${DB_DIR:-/tmp}/citysim-cpu.XXXXXX")
LA0=$(cut -d' ' -f1 /proc/loadavg)
"$BIN" serve --config "${SERVE_CONFIG:-Service/service-load.yaml}" --database "$W/service.sqlite" --port "$PORT" --clock-speed 1 >"$W/serve.log" 2>&1 &
S=$!
trap 'kill $S 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done
cpu() { awk '{ print $14 + $15 }' "/proc/$S/stat"; }
# "sum count" of the command-log batch size histogram
commits() { curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^citysim_command_log_batch_size_sum/ { s = $2 } /^citysim_command_log_batch_size_count/ { c = $2 } END { print s + 0, c + 0 }'; }
"${LOAD_BIN:-$BIN}" load Scenarios/smoke.yaml --mode burst --url "http://127.0.0.1:$PORT" --config Service/service-load.yaml \
  --concurrency "$CLIENTS" ${RATE:+--rate "$RATE"} --duration "${SECONDS_}s" --warmup 2s --out "$W/load.json" >"$W/load.txt" 2>"$W/load.err" &
L=$!
until grep -q "burst:" "$W/load.err" 2>/dev/null || ! kill -0 $L 2>/dev/null; do sleep 0.05; done
B0=$(commits)
C0=$(cpu)
L0=$(awk '{ print $14 + $15 }' "/proc/$L/stat")
until grep -q "checking the end state" "$W/load.err" 2>/dev/null || ! kill -0 $L 2>/dev/null; do sleep 0.05; done
CL=$(cpu)
L1=$(awk '{ print $14 + $15 }' "/proc/$L/stat" 2>/dev/null || echo "$L0")
wait $L
C1=$(cpu)
B1=$(commits)
LA1=$(cut -d' ' -f1 /proc/loadavg)
read -r COUNT PERS P50 P99 <<<"$(awk '/^POST \/v1\/rides/ { print $3, $4, $5, $7 }' "$W/load.txt")"
ACK=$(grep -o '[0-9][0-9]* acknowledged' "$W/load.txt" | head -1 | awk '{ print $1 }')
grep -q "nothing lost" "$W/load.txt" || echo "end-state check failed: $(tail -3 "$W/load.txt")" >&2
awk -v l="$LABEL" -v r="${RATE:-closed}" -v c="$COUNT" -v ps="$PERS" -v p50="$P50" -v p99="$P99" -v c0="$C0" -v c1="$C1" \
    -v t="$(getconf CLK_TCK)" -v a="$ACK" -v la0="$LA0" -v la1="$LA1" -v b0="$B0" -v b1="$B1" -v cl="$CL" -v l0="$L0" -v l1="$L1" 'BEGIN { cpu = (c1 - c0) / t
  split(b0, x, " "); split(b1, y, " "); batch = y[2] > x[2] ? (y[1] - x[1]) / (y[2] - x[2]) : 0
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%.1f\t%s\t%s\t%.1f\t%.1f\t%.1f\n", l, r, c, ps, p50, p99, cpu, a, cpu / a * 1e6, la0, la1, batch,
    (cl - c0) / t / a * 1e6, (l1 - l0) / t / a * 1e6 }'
