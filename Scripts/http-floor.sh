#!/usr/bin/env bash
# Server CPU per HTTP request on a route that does no work (GET /health/live by default): the cost of the
# HTTP path alone (NIO, Hummingbird, the service's middleware, the kernel's TCP), which every ride request
# pays before any dispatch or storage work. A fresh `citysim serve` (service-load.yaml) under h2load
# (Debian's nghttp2-client, an independent client in C); the server's utime+stime (/proc/PID/stat) over the
# run is divided by the requests answered. Prints one TSV line:
#   label requests server_cpu_s us_per_request mean_latency h2load_args
#   Scripts/http-floor.sh h1-500 BIN --h1 -c 500 --rps 10 -D 20         # HTTP/1.1, 500 connections at 5,000/s
#   Scripts/http-floor.sh h1-pipelined BIN --h1 -c 50 -m 10 --rps 100 -D 20   # 10 requests in flight per connection
#   ROUTE=/openapi.json Scripts/http-floor.sh doc BIN --h1 -c 50 --rps 20 -D 10
#   PLAIN=1 Scripts/http-floor.sh raw-nio Benchmarks/http-floor/.build/release/raw-nio --h1 -c 500 --rps 10 -D 20
# PLAIN=1: BIN is another server (Benchmarks/http-floor's), started as `BIN PORT`, measured the same way.
# Extra environment (e.g. CITYSIM_* config keys) passes on to the server.
set -uo pipefail
cd "$(dirname "$0")/.."
LABEL=$1; BIN=$2; shift 2
command -v h2load >/dev/null || { echo "http-floor.sh: h2load not found (apt-get install nghttp2-client)" >&2; exit 2; }
PORT=${PORT:-18411}; W=$(mktemp -d)
if [ -n "${PLAIN:-}" ]; then
  "$BIN" "$PORT" >"$W/serve.log" 2>&1 &
else
  "$BIN" serve --config Service/service-load.yaml --database "$W/service.sqlite" --port "$PORT" --clock-speed 1 >"$W/serve.log" 2>&1 &
fi
S=$!
trap 'kill $S 2>/dev/null; wait $S 2>/dev/null; rm -rf "$W"' EXIT
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/health/live" >/dev/null 2>&1 && break; sleep 0.1; done
cpu() { awk '{ print $14 + $15 }' "/proc/$S/stat"; }
C0=$(cpu)
h2load "$@" "http://127.0.0.1:$PORT${ROUTE:-/health/live}" >"$W/h2load.txt" 2>&1
C1=$(cpu)
N=$(awk '/^requests:/ { print $8 }' "$W/h2load.txt")
OK=$(awk '/^status codes:/ { print $3 }' "$W/h2load.txt")
[ "${N:-0}" -gt 0 ] && [ "$N" = "$OK" ] || { echo "http-floor.sh: not every request answered 2xx:" >&2; cat "$W/h2load.txt" >&2; exit 1; }
# h2load's "time for request" line: min max mean sd; the mean is printed.
MEAN=$(awk '/^time for request:/ { print $6 }' "$W/h2load.txt")
awk -v l="$LABEL" -v c0="$C0" -v c1="$C1" -v n="$N" -v t="$(getconf CLK_TCK)" -v m="$MEAN" -v a="$*" 'BEGIN {
  printf "%s\t%d\t%.2f\t%.1f\t%s\t%s\n", l, n, (c1 - c0) / t, (c1 - c0) / t / n * 1e6, m, a }'
