#!/usr/bin/env bash
# Soak test of the dispatch service: a fresh `citysim serve` (SQLite in a temporary folder) under a
# steady RATE ride requests/s from CLIENTS paced customers for DURATION, with DRIVERS taxis that
# accept every offer and complete the ride at once (so rides end `completed`, the rest `rejected`).
# Every INTERVAL seconds it samples the server's RSS, CPU seconds and the rides it holds in memory,
# then writes OUT.tsv (the samples), OUT.json (the load report) and OUT.txt (summary: rides served,
# RSS first/last/max, least-squares slope of RSS over the last 45 min, or the last 3/4 if shorter).
#
#   Scripts/soak.sh                                              # 1 h at 1,000/s → Results/service/soak-1h.*
#   DURATION=150s INTERVAL=10 OUT=/tmp/soak-short Scripts/soak.sh   # short check of the mechanism
#   ARCHIVE_AFTER=600 Scripts/soak.sh                            # the service's default retention
set -uo pipefail
cd "$(dirname "$0")/.."

BIN=${CITYSIM:-.build/release/citysim}
PORT=${PORT:-18190}
RATE=${RATE:-1000}
CLIENTS=${CLIENTS:-500}
DRIVERS=${DRIVERS:-10}
DRIVER_POLL=${DRIVER_POLL:-0.05}
DURATION=${DURATION:-3600s}
INTERVAL=${INTERVAL:-30}
ARCHIVE_AFTER=${ARCHIVE_AFTER:-120}   # archive_after_s: ended rides leave memory this long after they end
OUT=${OUT:-Results/service/soak-1h}
WORK=${WORK:-$(mktemp -d /tmp/citysim-soak.XXXXXX)}
mkdir -p "$WORK" "$(dirname "$OUT")"
[ -x "$BIN" ] || { echo "no $BIN: build it first (swift build -c release)"; exit 2; }

CITYSIM_ARCHIVE_AFTER_S=$ARCHIVE_AFTER "$BIN" serve --config Service/service-load.yaml \
  --database "$WORK/service.sqlite" --port "$PORT" --clock-speed 1 >"$WORK/serve.log" 2>&1 &
SERVER=$!
SAMPLER=
cleanup() { [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null; kill "$SERVER" 2>/dev/null; }
trap cleanup EXIT
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done

TICKS=$(getconf CLK_TCK)
sample() {  # elapsed s, RSS MiB, server CPU s, rides held in memory, database + WAL MiB, load average
  local rss cpu held db
  rss=$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status" 2>/dev/null)
  cpu=$(awk -v t="$TICKS" '{ printf "%.1f", ($14 + $15) / t }' "/proc/$SERVER/stat" 2>/dev/null)
  held=$(curl -sf "http://127.0.0.1:$PORT/metrics" | awk '/^citysim_rides\{/ { n += $2 } END { print n + 0 }')
  db=$(du -cm "$WORK"/service.sqlite* 2>/dev/null | awk 'END { print $1 }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$rss" "$cpu" "$held" "$db" "$(cut -d' ' -f1 /proc/loadavg)"
}
printf 'elapsed_s\trss_mib\tserver_cpu_s\trides_held\tdb_mib\tload_avg\n' >"$OUT.tsv"
START=$(date +%s)
( while kill -0 "$SERVER" 2>/dev/null; do sample $(( $(date +%s) - START )) >>"$OUT.tsv"; sleep "$INTERVAL"; done ) &
SAMPLER=$!

echo "soak: $RATE ride requests/s from $CLIENTS clients, $DRIVERS taxis, $DURATION, archive_after_s $ARCHIVE_AFTER, work folder $WORK"
"$BIN" load Scenarios/smoke.yaml --mode burst --url "http://127.0.0.1:$PORT" --config Service/service-load.yaml \
  --concurrency "$CLIENTS" --rate "$RATE" --drivers "$DRIVERS" --driver-poll "$DRIVER_POLL" --duration "$DURATION" \
  --out "$OUT.json" >"$WORK/load.txt" 2>&1
STATUS=$?
kill "$SAMPLER" 2>/dev/null; SAMPLER=
sample $(( $(date +%s) - START )) >>"$OUT.tsv"

{
  echo "soak at commit $(git rev-parse --short HEAD), $("$BIN" --version)"
  echo "$RATE ride requests/s from $CLIENTS paced clients, $DRIVERS taxis completing rides, $DURATION, archive_after_s $ARCHIVE_AFTER"
  cat "$WORK/load.txt"
  awk -F'\t' 'NR > 1 && $2 != "" { t[n] = $1; r[n] = $2; h[n] = $4; n++ }
    END {
      if (n < 2) { print "too few samples"; exit }
      last = t[n - 1]; from = (last >= 3600) ? last - 2700 : last / 4
      for (i = 0; i < n; i++) { if (r[i] > max) max = r[i]; if (t[i] >= from) { k++; sx += t[i]; sy += r[i]; sxx += t[i] * t[i]; sxy += t[i] * r[i] } }
      slope = (k * sxy - sx * sy) / (k * sxx - sx * sx)
      printf "RSS: first sample %.1f MiB, last %.1f MiB, max %.1f MiB; rides held at the end of the load: %d\n", r[0], r[n - 1], max, h[n - 2]
      printf "RSS slope from %d s to %d s (%d samples): %.3f MiB/h\n", from, last, k, slope * 3600
    }' "$OUT.tsv"
} | tee "$OUT.txt"
exit $STATUS
