#!/usr/bin/env bash
# Instructions of one whole run of a scenario, counted by callgrind: the same binary counts the same on any
# machine and load, so two builds compare exactly where their wall clocks on a shared machine do not.
# The run is BenchGate's (Benchmarks/): one thread (the helpers' work counted on it), no output files.
# Prints the total and its split: set-up (CitySimulation.begin), summary (RunResult), and the loop (the rest:
# events, the core, and the customers' draws, which a normal run makes on a helper thread).
#
#   Scripts/count-instructions.sh Scenarios/city-scale.yaml duration_hours=8
#   BENCHGATE=/tmp/old/BenchGate Scripts/count-instructions.sh Benchmarks/reference/grid-city.yaml
#   OUT=/tmp/x Scripts/count-instructions.sh Scenarios/smoke.yaml    # also writes the run's files (no callgrind)
# Needs valgrind (apt-get install valgrind) and a release BenchGate: cd Benchmarks && swift build -c release --product BenchGate
set -euo pipefail
cd "$(dirname "$0")/.."
SCENARIO=${1:?usage: count-instructions.sh SCENARIO [key=value ...]}
shift
BIN=${BENCHGATE:-Benchmarks/.build/release/BenchGate}
[ -x "$BIN" ] || { echo "count-instructions: no BenchGate at $BIN (cd Benchmarks && swift build -c release --product BenchGate)" >&2; exit 2; }
if [ -n "${OUT:-}" ]; then exec "$BIN" scenario "$SCENARIO" "$@" --out "$OUT"; fi
W=$(mktemp -d /tmp/count-instructions.XXXXXX)
trap 'rm -rf "$W"' EXIT
# valgrind 3.19 cannot read the DWARF 5 that swiftc writes (as in .ci/bench_gate.py)
objcopy --strip-debug "$BIN" "$W/BenchGate"
valgrind --tool=callgrind --collect-atstart=no --toggle-collect='citysim_gate_measured_*' \
  --callgrind-out-file="$W/callgrind.out" "$W/BenchGate" scenario "$SCENARIO" "$@" 2>"$W/valgrind.log" \
  || { tail -5 "$W/valgrind.log" >&2; exit 2; }
callgrind_annotate --inclusive=yes --threshold=100 "$W/callgrind.out" 2>/dev/null | awk '
/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
/A10SimulationC5beginyyKF/ { gsub(",", "", $1); setup = $1 }
/RunResultV10simulation11wallSeconds/ { gsub(",", "", $1); if ($1 > summary) summary = $1 }
END { printf "instructions: total %.1f M = set-up %.1f M + loop %.1f M + summary %.1f M\n",
             total / 1e6, setup / 1e6, (total - setup - summary) / 1e6, summary / 1e6 }'
