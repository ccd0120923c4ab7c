#!/usr/bin/env bash
# Where the server's CPU per durable ride goes: a fresh `citysim serve` (SQLite, FULL sync) under the same load as
# Scripts/cpu-per-ride.sh (CLIENTS clients paced at RATE ride requests/s), `perf record -g` (cpu-clock: this VM has no
# hardware counters) on the server for SECS s, 3 s into the load. The rides answered 201 in that window come from
# GET /metrics, so the table's µs per ride are exact for the window. Writes OUT.data and OUT.md (Scripts/cpu-profile-table.py).
#   Scripts/cpu-profile.sh .build/release/citysim /tmp/profile-after        # 500 clients at 5,000/s, 10 s of perf
#   RATE=1000 SECS=20 PORT=18402 Scripts/cpu-profile.sh /tmp/base/citysim /tmp/profile-base
#   LOAD_BIN=/tmp/old/citysim Scripts/cpu-profile.sh BIN OUT     # another build's `citysim load` as the client
set -uo pipefail
BIN=$(realpath "${1:-.build/release/citysim}"); OUT=$(realpath -m "${2:-/tmp/citysim-profile}")
cd "$(dirname "$0")/.."
PORT=${PORT:-18401}; RATE=${RATE:-5000}; CLIENTS=${CLIENTS:-500}; SECS=${SECS:-10}
W=$(mktemp -d /tmp/citysim-profile.XXXXXX)
"$BIN" serve --config Service/service-load.yaml --database "$W/service.sqlite" --port "$PORT" --clock-speed 1 >"$W/serve.log" 2>&1 &
S=$!
trap 'kill $S 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done
"${LOAD_BIN:-$BIN}" load Scenarios/smoke.yaml --mode burst --url "http://127.0.0.1:$PORT" --config Service/service-load.yaml \
  --concurrency "$CLIENTS" --rate "$RATE" --duration $((SECS + 8))s --warmup 2s --out "$W/load.json" >"$W/load.txt" 2>"$W/load.err" &
L=$!
until grep -q "burst:" "$W/load.err" 2>/dev/null || ! kill -0 $L 2>/dev/null; do sleep 0.05; done
sleep 3
rides() { curl -s "http://127.0.0.1:$PORT/metrics" | awk '/^citysim_http_requests_total\{route="\/v1\/rides",method="POST",status="201"\}/ { print $2 }'; }
cpu() { awk '{ print $14 + $15 }' "/proc/$S/stat"; }
R0=$(rides); C0=$(cpu)
perf record -F 1999 -e cpu-clock -g -p $S -o "$OUT.data" -- sleep "$SECS" >/dev/null 2>&1
C1=$(cpu); R1=$(rides)
wait $L
US=$(awk -v c="$((C1 - C0))" -v t="$(getconf CLK_TCK)" -v r="$((R1 - R0))" 'BEGIN { printf "%.1f", c / t / r * 1e6 }')
{
  echo "\`$("$BIN" --version)\`, $CLIENTS clients paced at $RATE rides/s; perf window $SECS s: $((R1 - R0)) rides answered 201," \
       "server CPU $(awk -v c="$((C1 - C0))" -v t="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", c / t }') s = $US µs per ride" \
       "(with perf's own overhead); load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  perf script -i "$OUT.data" 2>/dev/null | swift demangle | python3 Scripts/cpu-profile-table.py "$US"
} > "$OUT.md"
cat "$OUT.md"
