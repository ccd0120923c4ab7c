#!/usr/bin/env bash
# Throughput of the dispatch service: `citysim load --mode burst` with N closed-loop customers
# against a fresh `citysim serve` (wall clock, SQLite WAL synchronous=FULL), both on this machine.
# Writes OUT (JSON report) and prints the table, the durable ride requests/s and the load average.
#
#   Scripts/service-bench.sh                              # 500 clients, 30 s → Results/runs/service-burst-500.json
#   CONCURRENCY=500 DURATION=30s OUT=Results/service/burst-500.json Scripts/service-bench.sh
#   PERF=1 Scripts/service-bench.sh                        # also perf-record the server for 10 s mid-run
#   RATE=5000 Scripts/service-bench.sh                     # 500 clients paced at 5,000 ride requests/s in all
set -uo pipefail
cd "$(dirname "$0")/.."

BIN=${CITYSIM:-.build/release/citysim}
PORT=${PORT:-18180}
CONCURRENCY=${CONCURRENCY:-500}
DURATION=${DURATION:-30s}
QUERY_SHARE=${QUERY_SHARE:-0}
RATE=${RATE:-}                      # ride requests/s of all clients together (empty: back to back)
OUT=${OUT:-Results/runs/service-burst-$CONCURRENCY.json}
WORK=${WORK:-$(mktemp -d /tmp/citysim-bench.XXXXXX)}
mkdir -p "$WORK" "$(dirname "$OUT")"
[ -x "$BIN" ] || { echo "no $BIN: build it first (swift build -c release)"; exit 2; }

"$BIN" serve --config Service/service-load.yaml --database "$WORK/service.sqlite" --port "$PORT" --clock-speed 1 \
  >"$WORK/serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done

if [ -n "${PERF:-}" ]; then
  ( sleep 15; perf record -F 299 -g -p "$SERVER" -o "$WORK/perf.data" -- sleep 10 >/dev/null 2>&1
    perf report -i "$WORK/perf.data" --no-children --sort dso,symbol --stdio 2>/dev/null | grep -v '^#' | grep '%' \
      | head -60 >"$WORK/perf-top.txt" ) &
  PERFJOB=$!
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
cpu() { awk '{ printf "%.1f", ($14 + $15) / 100 }' "/proc/$1/stat"; }   # user + system CPU seconds
SERVER_CPU0=$(cpu "$SERVER")
/usr/bin/time -f "load client CPU: %U s user + %S s system, %e s wall" \
"$BIN" load Scenarios/smoke.yaml --mode burst --url "http://127.0.0.1:$PORT" --config Service/service-load.yaml \
  --concurrency "$CONCURRENCY" --duration "$DURATION" --query-share "$QUERY_SHARE" ${RATE:+--rate "$RATE"} --out "$OUT"
STATUS=$?
echo "server CPU during the load command (setup included): $(awk -v a="$(cpu "$SERVER")" -v b="$SERVER_CPU0" 'BEGIN { printf "%.1f", a - b }') s"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${PERFJOB:-}" ] && wait "$PERFJOB"
[ -n "${PERF:-}" ] && { echo "server profile (perf, top symbols):"; head -40 "$WORK/perf-top.txt"; }
echo "report: $OUT   work folder: $WORK"
exit $STATUS
