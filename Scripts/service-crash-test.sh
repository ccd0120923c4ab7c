#!/usr/bin/env bash
# Crash test of the dispatch service: no accepted ride or reservation is lost by a SIGKILL.
#
# Starts `citysim serve` on a fresh SQLite database, plays a scenario against it with
# `citysim load` (which appends every acknowledged ride to a file as it is acknowledged),
# SIGKILLs the server in the middle of the run, restarts it on the same database, lets the
# load run finish, then checks against the restarted server that
#   1. every ride acknowledged before the kill is there, and
#   2. every ride acknowledged during the whole run is there, finished rides unchanged,
#      and the dispatch core's invariants hold.
# The server takes a checkpoint every CHECKPOINT_EVERY commands (default 25: several a second at
# this load) and cuts the command log, so the kill lands between, after or during checkpoints and
# the restart loads a checkpoint and replays only the log after it (both printed from /metrics and
# the database). CHECKPOINT_EVERY=0 runs without checkpoints (the log is replayed from the start).
# Prints PASS or FAIL and exits 0 or 1.
#
#   Scripts/service-crash-test.sh                       # uses .build/release/citysim
#   CITYSIM=.build/debug/citysim KILL_AFTER=20 Scripts/service-crash-test.sh
#   KILLS=3 Scripts/service-crash-test.sh               # kill and restart three times, KILL_AFTER s apart
set -uo pipefail
cd "$(dirname "$0")/.."

BIN=${CITYSIM:-.build/release/citysim}
PORT=${PORT:-18181}
SPEED=${SPEED:-60}
HOURS=${HOURS:-0.5}
SCENARIO=${SCENARIO:-Scenarios/smoke.yaml}
KILL_AFTER=${KILL_AFTER:-25}        # seconds after the load starts (account setup takes a few)
DOWN_FOR=${DOWN_FOR:-2}             # seconds the server stays dead
CHECKPOINT_EVERY=${CHECKPOINT_EVERY:-25}   # checkpoint.every_commands of the server (0: never)
KILLS=${KILLS:-1}                   # how many times the server is killed and restarted
WORK=${WORK:-$(mktemp -d /tmp/citysim-crash.XXXXXX)}
mkdir -p "$WORK"
CONFIG=Service/service-load.yaml
DB=$WORK/service.sqlite
ACK=$WORK/acknowledged.txt
URL=http://127.0.0.1:$PORT
[ -x "$BIN" ] || { echo "no $BIN: build it first (swift build -c release)"; exit 2; }

serve() {
  CITYSIM_CHECKPOINT_EVERY_COMMANDS=$CHECKPOINT_EVERY CITYSIM_CHECKPOINT_EVERY_S=0 \
    "$BIN" serve --config "$CONFIG" --database "$DB" --port "$PORT" --clock-speed "$SPEED" >>"$WORK/serve.log" 2>&1 &
  SERVER=$!
  for _ in $(seq 1 200); do
    curl -sf "$URL/health" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "server did not come up; see $WORK/serve.log"; exit 2
}
cleanup() { [ -n "${SERVER:-}" ] && kill "$SERVER" 2>/dev/null; [ -n "${LOAD:-}" ] && kill "$LOAD" 2>/dev/null; }
trap cleanup EXIT

echo "work folder: $WORK"
serve
echo "server up (pid $SERVER) on $URL, clock ×$SPEED, fresh database $DB"
"$BIN" load "$SCENARIO" --url "$URL" --config "$CONFIG" --speed "$SPEED" --hours "$HOURS" --concurrency 100 \
  --set demand.reservations.share=0.2 --set demand.cancellation.probability=0.1 \
  --acknowledged "$ACK" --out "$WORK/load.json" >"$WORK/load.log" 2>&1 &
LOAD=$!
gauge() { curl -sf "$URL/metrics" | awk -v name="$1" '$1 == name { printf "%d", $2 }'; }
log_rows() { sqlite3 "file:$DB?mode=ro" "SELECT COUNT(*) || ' log rows (sequence ' || IFNULL(MIN(sequence), '-') || '–' || IFNULL(MAX(sequence), '-') || '), checkpoints at ' || IFNULL((SELECT GROUP_CONCAT(sequence) FROM checkpoint), 'none') FROM command_log" 2>&1; }
for kill_number in $(seq 1 "$KILLS"); do
  sleep "$KILL_AFTER"
  echo "before kill $kill_number: newest checkpoint at command $(gauge citysim_checkpoint_sequence), $(gauge citysim_command_log_rows_since_checkpoint) commands logged since"
  kill -KILL "$SERVER"
  wait "$SERVER" 2>/dev/null
  [ "$kill_number" -eq 1 ] && cp "$ACK" "$WORK/acknowledged-at-kill.txt"
  echo "SIGKILL $kill_number sent to the server: $(cut -d' ' -f1 "$ACK" | sort -u | wc -l) rides acknowledged so far; database: $(log_rows)"
  sleep "$DOWN_FOR"
  serve
  echo "server restarted (pid $SERVER) on the same database: loaded the checkpoint at command $(gauge citysim_checkpoint_sequence); $(gauge citysim_command_log_rows_since_checkpoint) commands logged after it (the tail it replayed, and any since)"
done

"$BIN" load "$SCENARIO" --url "$URL" --config "$CONFIG" --check-only --acknowledged "$WORK/acknowledged-at-kill.txt" \
  >"$WORK/check-at-kill.txt" 2>&1
BEFORE=$?
echo "rides acknowledged before the kill, on the restarted server: $(cat "$WORK/check-at-kill.txt")"

wait "$LOAD"
LOADED=$?
LOAD=
echo "load run finished (exit $LOADED); its report:"
sed 's/^/  /' "$WORK/load.log"
"$BIN" load "$SCENARIO" --url "$URL" --config "$CONFIG" --check-only --acknowledged "$ACK" >"$WORK/check-final.txt" 2>&1
AFTER=$?
echo "every acknowledged ride of the run, on the restarted server: $(cat "$WORK/check-final.txt")"

if [ "$BEFORE" -eq 0 ] && [ "$AFTER" -eq 0 ] && [ "$LOADED" -eq 0 ]; then
  echo "PASS: SIGKILL mid-run lost no acknowledged ride or reservation; invariants hold"
  exit 0
fi
echo "FAIL: see $WORK"
exit 1
