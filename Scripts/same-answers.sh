#!/usr/bin/env bash
# Same answers: runs every bundled scenario (and the yardstick's grid city) with two citysim binaries and
# compares what they write: rides.csv, drivers.csv and summary.json without its timings (engine.wall_s,
# engine.events_per_s) and the commit stamp. engine.events must match too. Prints one line per scenario
# and exits 1 when any output differs (the first differing lines are shown), 2 on a run error.
#
#   Scripts/same-answers.sh /tmp/citysim-base .build/release/citysim
#   SCENARIOS="smoke city-scale" Scripts/same-answers.sh BASE NEW     # a subset (names under Scenarios/)
#   EXTRA="--replications 3" Scripts/same-answers.sh BASE NEW         # extra arguments for both runs
set -uo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: same-answers.sh BASE_BINARY NEW_BINARY}
NEW=${2:?usage: same-answers.sh BASE_BINARY NEW_BINARY}
ALL="smoke rush-hour city-scale seeds-reference calendar-day one-zone-erlang od-demand trip-replay helsinki helsinki-trips megacity grid-city"
W=$(mktemp -d /tmp/same-answers.XXXXXX)
trap 'rm -rf "$W"' EXIT
status=0

path_of() {
  case "$1" in
    grid-city) echo Benchmarks/reference/grid-city.yaml ;;
    *) echo "Scenarios/$1.yaml" ;;
  esac
}

# The summary without what may differ between two runs of the same model: timings and the build stamp.
normalise() {
  python3 - "$1" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
s.pop("commit", None)
for key in ("wall_s", "events_per_s"):
    s.get("engine", {}).pop(key, None)
print(json.dumps(s, indent=1, sort_keys=True))
EOF
}

for name in ${SCENARIOS:-$ALL}; do
  scenario=$(path_of "$name")
  for side in base new; do
    bin=$BASE; [ "$side" = new ] && bin=$NEW
    # shellcheck disable=SC2086
    if ! "$bin" run "$scenario" --out "$W/$side/$name" ${EXTRA:-} >"$W/$side-$name.log" 2>&1; then
      echo "$name: the $side binary failed: $(tail -3 "$W/$side-$name.log")" >&2
      exit 2
    fi
  done
  differ=""
  for file in rides.csv drivers.csv; do
    [ -f "$W/base/$name/$file" ] || continue
    cmp -s "$W/base/$name/$file" "$W/new/$name/$file" || differ="$differ $file"
  done
  for summary in "$W"/base/"$name"/summary*.json "$W"/base/"$name"/replications.json; do
    [ -f "$summary" ] || continue
    other="$W/new/$name/${summary#"$W/base/$name/"}"
    if [ ! -f "$other" ] || ! cmp -s <(normalise "$summary") <(normalise "$other"); then
      differ="$differ $(basename "$summary")"
    fi
  done
  if [ -z "$differ" ]; then
    echo "$name: same"
  else
    status=1
    echo "$name: DIFFERENT:$differ"
    for file in $differ; do
      case "$file" in
        *.json) diff <(normalise "$W/base/$name/$file") <(normalise "$W/new/$name/$file") | head -10 ;;
        *) diff "$W/base/$name/$file" "$W/new/$name/$file" | head -6 ;;
      esac
    done
  fi
done
exit $status
