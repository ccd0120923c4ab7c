#!/usr/bin/env bash
# Server CPU per request on a route that does no work, for three servers side by side: citysim's own
# (Scripts/http-floor.sh, GET /health/live with the service's middleware), Hummingbird 2 with no middleware
# (bare-hb) and SwiftNIO alone with no async on the request path (raw-nio). Rounds alternate the three, first
# at 500 connections × 10/s, then 50 × 100/s (both 5,000 requests/s for 20 s, h2load). Then, at 500 × 10/s,
# raw-nio GET against raw-nio-post's POST with a canned answer (the body read alone) and with Foundation's
# JSONDecoder + JSONEncoder. Prints TSV lines: configuration, http-floor.sh's line, load average before and after.
#   Benchmarks/http-floor/compare.sh /tmp/citysim            # a release citysim; ROUNDS=3 by default
# Needs h2load (apt-get install nghttp2-client) and a release build here: swift build -c release
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd); ROOT=$(cd "$HERE/../.." && pwd)
CITYSIM=${1:?usage: compare.sh CITYSIM_BINARY}
BIN=$HERE/.build/release
FLOOR=$ROOT/Scripts/http-floor.sh   # every server measured the same way (PLAIN=1: started as `BIN PORT`)
for b in raw-nio bare-hb raw-nio-post; do
  [ -x "$BIN/$b" ] || { echo "compare.sh: no $BIN/$b (cd $HERE && swift build -c release)" >&2; exit 2; }
done
la() { cut -d' ' -f1 /proc/loadavg; }
one() { # configuration, then the command printing http-floor.sh's line
  local cfg=$1 l0 line; shift
  l0=$(la)
  line=$("$@") || { echo "compare.sh: run failed: $*" >&2; exit 1; }
  printf '%s\t%s\tload0=%s\tload1=%s\n' "$cfg" "$line" "$l0" "$(la)"
  sleep 3
}
for cfg in c500 c50; do
  if [ $cfg = c500 ]; then A=(--h1 -c 500 --rps 10 -D 20); else A=(--h1 -c 50 --rps 100 -D 20); fi
  for _ in $(seq 1 "${ROUNDS:-3}"); do
    one $cfg "$FLOOR" citysim "$CITYSIM" "${A[@]}"
    PLAIN=1 one $cfg "$FLOOR" bare-hb "$BIN/bare-hb" "${A[@]}"
    PLAIN=1 one $cfg "$FLOOR" raw-nio "$BIN/raw-nio" "${A[@]}"
  done
done
A=(--h1 -c 500 --rps 10 -D 20)
P=(-d "$HERE/ride.json" -H 'content-type: application/json')
for _ in $(seq 1 "${ROUNDS:-3}"); do
  PLAIN=1 one c500 "$FLOOR" raw-nio "$BIN/raw-nio" "${A[@]}"
  PLAIN=1 ROUTE=/v1/rides-nojson one c500-post "$FLOOR" raw-nio-post-nojson "$BIN/raw-nio-post" "${A[@]}" "${P[@]}"
  PLAIN=1 ROUTE=/v1/rides one c500-post "$FLOOR" raw-nio-post-json "$BIN/raw-nio-post" "${A[@]}" "${P[@]}"
done
