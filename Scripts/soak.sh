#!/usr/bin/env bash
# Soak test of the dispatch service: a fresh `citysim serve` (SQLite in a temporary folder) under a
# steady RATE ride requests/s from CLIENTS paced customers for DURATION, with DRIVERS taxis that
# accept every offer and complete the ride at once (so rides end `completed`, the rest `rejected`).
# Every INTERVAL seconds it samples the server's RSS, CPU seconds and the rides it holds in memory,
# then writes OUT.tsv (the samples), OUT.json (the load report) and OUT.txt (summary: rides served,
# RSS at 10 min and at the end, least-squares slopes of RSS, RssAnon and malloc's bytes in use over
# the last 45 min of the load, or its last 3/4 if shorter; pending timers; server CPU).
#
#   Scripts/soak.sh                                              # 1 h at 1,000/s → Results/service/soak-1h.*
#   DURATION=150s INTERVAL=10 OUT=/tmp/soak-short Scripts/soak.sh   # short check of the mechanism
#   ARCHIVE_AFTER=600 Scripts/soak.sh                            # the service's default retention
#   DURATION=1200s CHECKPOINT_EVERY=0 CHECKPOINT_EVERY_S=0 OUT=/tmp/no-checkpoints Scripts/soak.sh   # log never cut
#
# Checkpoints: the server runs with checkpoint.every_commands CHECKPOINT_EVERY and checkpoint.every_s
# CHECKPOINT_EVERY_S (defaults: the service's, 100,000 and 300; 0 turns a trigger off). After the load
# the server is SIGKILLed and started again on the same database, and the time from that start to
# `GET /health/ready` answering 200 is the restart time in OUT.txt.
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
CHECKPOINT_EVERY=${CHECKPOINT_EVERY:-100000}
CHECKPOINT_EVERY_S=${CHECKPOINT_EVERY_S:-300}
WORK=${WORK:-$(mktemp -d /tmp/citysim-soak.XXXXXX)}
mkdir -p "$WORK" "$(dirname "$OUT")"
[ -x "$BIN" ] || { echo "no $BIN: build it first (swift build -c release)"; exit 2; }

serve() {
  CITYSIM_ARCHIVE_AFTER_S=$ARCHIVE_AFTER CITYSIM_CHECKPOINT_EVERY_COMMANDS=$CHECKPOINT_EVERY \
  CITYSIM_CHECKPOINT_EVERY_S=$CHECKPOINT_EVERY_S "$BIN" serve --config Service/service-load.yaml \
    --database "$WORK/service.sqlite" --port "$PORT" --clock-speed 1 >>"$WORK/serve.log" 2>&1 &
  SERVER=$!
}
serve
SAMPLER=
cleanup() { [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null; kill "$SERVER" 2>/dev/null; }
trap cleanup EXIT
for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break; sleep 0.1; done

TICKS=$(getconf CLK_TCK)
sample() {  # elapsed s, RSS MiB, server CPU s, rides held, database + WAL MiB, load average, then from /metrics
  # pending timers, rides archived, malloc in use and free (MiB), RSS split: anonymous, file, shared memory (MiB),
  # then commands logged since the newest checkpoint and that checkpoint's MiB
  local rss cpu metrics held extra split db cut
  rss=$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$SERVER/status" 2>/dev/null)
  cpu=$(awk -v t="$TICKS" '{ printf "%.1f", ($14 + $15) / t }' "/proc/$SERVER/stat" 2>/dev/null)
  metrics=$(curl -sf "http://127.0.0.1:$PORT/metrics")
  held=$(awk '/^citysim_rides\{/ { n += $2 } END { print n + 0 }' <<<"$metrics")
  extra=$(awk '/^citysim_pending_timers / { t = $2 } /^citysim_rides_archived / { a = $2 }
    /^citysim_heap_in_use_bytes / { u = $2 } /^citysim_heap_free_bytes / { f = $2 }
    END { printf "%d\t%d\t%.1f\t%.1f", t, a, u / 1048576, f / 1048576 }' <<<"$metrics")
  split=$(awk '/^RssAnon/ { a = $2 } /^RssFile/ { f = $2 } /^RssShmem/ { s = $2 }
    END { printf "%.1f\t%.1f\t%.1f", a / 1024, f / 1024, s / 1024 }' "/proc/$SERVER/status" 2>/dev/null)
  cut=$(awk '/^citysim_command_log_rows_since_checkpoint / { r = $2 } /^citysim_checkpoint_bytes / { b = $2 }
    END { printf "%d\t%.1f", r, b / 1048576 }' <<<"$metrics")
  db=$(du -cm "$WORK"/service.sqlite* 2>/dev/null | awk 'END { print $1 }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$rss" "$cpu" "$held" "$db" "$(cut -d' ' -f1 /proc/loadavg)" "$extra" "$split" "$cut"
}
printf 'elapsed_s\trss_mib\tserver_cpu_s\trides_held\tdb_mib\tload_avg\tpending_timers\trides_archived\theap_in_use_mib\theap_free_mib\trss_anon_mib\trss_file_mib\trss_shmem_mib\tlog_rows_since_checkpoint\tcheckpoint_mib\n' >"$OUT.tsv"
START=$(date +%s)
COMMIT=$(git rev-parse --short HEAD)  # at the start: commits made during the soak are not in the binary
( while kill -0 "$SERVER" 2>/dev/null; do sample $(( $(date +%s) - START )) >>"$OUT.tsv"; sleep "$INTERVAL"; done ) &
SAMPLER=$!

echo "soak: $RATE ride requests/s from $CLIENTS clients, $DRIVERS taxis, $DURATION, archive_after_s $ARCHIVE_AFTER, work folder $WORK"
"$BIN" load Scenarios/smoke.yaml --mode burst --url "http://127.0.0.1:$PORT" --config Service/service-load.yaml \
  --concurrency "$CLIENTS" --rate "$RATE" --drivers "$DRIVERS" --driver-poll "$DRIVER_POLL" --duration "$DURATION" \
  --out "$OUT.json" >"$WORK/load.txt" 2>&1
STATUS=$?
kill "$SAMPLER" 2>/dev/null; SAMPLER=
sample $(( $(date +%s) - START )) >>"$OUT.tsv"

# Restart: SIGKILL (the worst case: no checkpoint at shutdown), start again, time until ready.
kill -KILL "$SERVER"; wait "$SERVER" 2>/dev/null
SIZE_AT_KILL=$(du -cm "$WORK"/service.sqlite* | awk 'END { print $1 }')
LOG_ROWS=$(sqlite3 "file:$WORK/service.sqlite?mode=ro" "SELECT COUNT(*) FROM command_log" 2>/dev/null || echo "?")
# Where the file's pages are: by table and index (dbstat), and free pages waiting for reuse.
TABLES=$(sqlite3 "file:$WORK/service.sqlite?mode=ro" "SELECT name || ' ' || printf('%.1f', SUM(pgsize) / 1048576.0) || ' MiB' FROM dbstat GROUP BY name HAVING SUM(pgsize) > 1048576 ORDER BY SUM(pgsize) DESC" 2>/dev/null | paste -sd ',' | sed 's/,/, /g')
FREE=$(sqlite3 "file:$WORK/service.sqlite?mode=ro" "SELECT printf('%.1f', freelist_count * page_size / 1048576.0) FROM pragma_freelist_count, pragma_page_size" 2>/dev/null)
RESTART_FROM=$(date +%s.%N)
serve
READY=
for _ in $(seq 1 36000); do
  curl -sf "http://127.0.0.1:$PORT/health/ready" >/dev/null 2>&1 && { READY=$(date +%s.%N); break; }
  sleep 0.05
done
RESTART_LINE=$(awk -v a="$RESTART_FROM" -v b="${READY:-0}" -v db="$SIZE_AT_KILL" -v rows="$LOG_ROWS" 'BEGIN {
  if (b == 0) printf "restart: not ready within 30 min"; else printf "restart after SIGKILL: ready %.2f s after start; database %d MiB with %s command-log rows at the kill", b - a, db, rows }')

{
  echo "soak at commit $COMMIT, $("$BIN" --version)"
  echo "$RATE ride requests/s from $CLIENTS paced clients, $DRIVERS taxis completing rides, $DURATION, archive_after_s $ARCHIVE_AFTER, checkpoint every $CHECKPOINT_EVERY commands / $CHECKPOINT_EVERY_S s (0: never)"
  cat "$WORK/load.txt"
  # The load's samples are those up to DURATION s; later ones are of its end-state check (reads every ride).
  awk -F'\t' -v load="${DURATION%s}" 'BEGIN { n = 0 }
    NR > 1 && $2 != "" && $1 > load + 0 { if ($2 > check) check = $2 }
    NR > 1 && $2 != "" && $1 <= load + 0 { t[n] = $1; r[n] = $2; h[n] = $4; p[n] = $7; a[n] = $11; u[n] = $9; c[n] = $3
      d[n] = $5; g[n] = $14; k2[n] = $15; if ($5 + 0 > dmax) dmax = $5 + 0; if ($14 + 0 > gmax) gmax = $14 + 0; n++ }
    function slope(v,   i, k, sx, sy, sxx, sxy) {
      for (i = 0; i < n; i++) if (t[i] >= from) { k++; sx += t[i]; sy += v[i]; sxx += t[i] * t[i]; sxy += t[i] * v[i] }
      return 3600 * (k * sxy - sx * sy) / (k * sxx - sx * sx)
    }
    END {
      if (n < 3) { print "too few samples"; exit }
      last = t[n - 1]; from = (last >= 3600) ? last - 2700 : last / 4
      for (i = 0; i < n; i++) { if (r[i] > max) max = r[i]; if (p[i] + 0 > pmax) pmax = p[i] + 0; if (t[i] >= from) k++; if (t[i] <= 600) ten = i }
      printf "RSS: first sample %.1f MiB, at %d s %.1f MiB, last of the load (%d s) %.1f MiB, max %.1f MiB; max during the end-state check %.1f MiB\n", r[0], t[ten], r[ten], last, r[n - 1], max, check
      printf "rides held at the end of the load: %d; pending timers at %d s %d, at the end %d (max %d)\n", h[n - 1], t[ten], p[ten], p[n - 1], pmax
      printf "slopes from %d s to %d s (%d samples): RSS %.1f MiB/h, RssAnon %.1f MiB/h, malloc in use %.1f MiB/h\n", from, last, k, slope(r), slope(a), slope(u)
      printf "server CPU: %.0f s over %d s of load (%.2f cores)\n", c[n - 1], last, c[n - 1] / last
      printf "database (file + WAL): at %d s %d MiB, max %d MiB, last of the load %d MiB; slope from %d s: %.1f MiB/h\n", t[ten], d[ten], dmax, d[n - 1], from, slope(d)
      printf "commands logged since the newest checkpoint: max %d, at the end %d; newest checkpoint %.1f MiB\n", gmax, g[n - 1], k2[n - 1]
    }' "$OUT.tsv"
  echo "$RESTART_LINE"
  echo "database pages at the kill: ${TABLES:-?}; free pages ${FREE:-?} MiB"
} | tee "$OUT.txt"
exit $STATUS
