#!/usr/bin/env bash
# Server CPU per durable ride: a fresh `citysim serve` (SQLite, FULL sync) under `citysim load --mode burst`
# (CLIENTS clients, paced at RATE ride requests/s, SECONDS s after 2 s warm-up). The server's utime+stime
# (/proc/PID/stat) is read when the load has set its accounts up and when it ends, and divided by the rides
# acknowledged. Prints one TSV line:
#   label rate count per_s p50_ms p99_ms server_cpu_s acknowledged us_per_ride load_before load_after
#   Scripts/cpu-per-ride.sh after .build/release/citysim            # 500 clients at 5,000/s for 30 s
#   RATE= Scripts/cpu-per-ride.sh closed /tmp/base/citysim          # closed loop (back to back)
set -uo pipefail
cd "$(dirname "$0")/.."
LABEL=${1:-run}; BIN=${2:-.build/release/citysim}
PORT=${PORT:-18401}; RATE=${RATE-5000}; SECONDS_=${SECONDS_:-30}; CLIENTS=${CLIENTS:-500}
W=$(mktemp -d /tmp/citysim-cpu.XXXXXX)
LA0=$(cut -d' ' -f1 /proc/loadavg)
"$BIN" serve --config Service/service-load.yaml --database "$W/service.sqlite" --port "$PORT" --clock-speed 1 >"$W/serve.log" 2>&1 &
S=$!
trap 'kill $S 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done
cpu() { awk '{ print $14 + $15 }' "/proc/$S/stat"; }
"$BIN" load Scenarios/smoke.yaml --mode burst --url "http://127.0.0.1:$PORT" --config Service/service-load.yaml \
  --concurrency "$CLIENTS" ${RATE:+--rate "$RATE"} --duration "${SECONDS_}s" --warmup 2s --out "$W/load.json" >"$W/load.txt" 2>"$W/load.err" &
L=$!
until grep -q "burst:" "$W/load.err" 2>/dev/null || ! kill -0 $L 2>/dev/null; do sleep 0.05; done
C0=$(cpu)
wait $L
C1=$(cpu)
LA1=$(cut -d' ' -f1 /proc/loadavg)
read -r COUNT PERS P50 P99 <<<"$(awk '/^POST \/v1\/rides/ { print $3, $4, $5, $7 }' "$W/load.txt")"
ACK=$(grep -o '[0-9][0-9]* acknowledged' "$W/load.txt" | head -1 | awk '{ print $1 }')
grep -q "nothing lost" "$W/load.txt" || echo "end-state check failed: $(tail -3 "$W/load.txt")" >&2
awk -v l="$LABEL" -v r="${RATE:-closed}" -v c="$COUNT" -v ps="$PERS" -v p50="$P50" -v p99="$P99" -v c0="$C0" -v c1="$C1" \
    -v t="$(getconf CLK_TCK)" -v a="$ACK" -v la0="$LA0" -v la1="$LA1" 'BEGIN { cpu = (c1 - c0) / t
  printf "%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%.1f\t%s\t%s\n", l, r, c, ps, p50, p99, cpu, a, cpu / a * 1e6, la0, la1 }'
