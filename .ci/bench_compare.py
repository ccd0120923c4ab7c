#!/usr/bin/env python3
"""Compact baselines for the ordo-one benchmark suites (stdlib only).

  extract RUN.jmh.json [RUN2.jmh.json ...] -o OUT.json
      p50 wall clock (ns) per benchmark; with several runs, the smallest p50
      of each benchmark (the run least disturbed by neighbours).
  noise OUT1.json OUT2.json ... [--margin 2] [--floor 0.15]
      run-to-run spread of each benchmark's p50: (max - min) / median, and the
      threshold it implies: max(floor, margin x spread).
  baseline OUT1.json OUT2.json ... -o Results/bench/baseline.json [--margin 2] [--floor 0.15]
      the committed baseline: median p50 over the runs and a threshold per benchmark.
  compare BASELINE.json CURRENT.json [--only REGEX] [--informational]
      fails (exit 1) when a benchmark's p50 exceeds baseline x (1 + its threshold); with
      --informational (what .ci/bench uses: wall clock is a report, not the verdict) it marks
      such rows "slower" and exits 0.
"""
import argparse, json, re, statistics, sys


def p50s(path):
    """{benchmark name: p50 wall clock in ns} from an ordo-one jmh export."""
    units = {"ns": 1, "μs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
    out = {}
    for entry in json.load(open(path)):
        name = entry["benchmark"].split(".", 2)[-1].replace("_", " ")
        metrics = {"primary": entry["primaryMetric"], **entry.get("secondaryMetrics", {})}
        wall = next((m for k, m in metrics.items() if "wall clock" in k.lower()
                     or m.get("scoreUnit") in units and k == "primary"), None)
        if wall is None or wall.get("scoreUnit") not in units:
            continue
        out[name] = wall["scorePercentiles"]["50.0"] * units[wall["scoreUnit"]]
    return out


def load(path):
    data = json.load(open(path))
    return data["benchmarks"] if "benchmarks" in data else data


def cmd_extract(args):
    runs = [p50s(p) for p in args.runs]
    names = sorted(set().union(*runs))
    result = {n: min(r[n] for r in runs if n in r) for n in names}
    json.dump({"unit": "ns", "metric": "wall clock p50", "benchmarks": result}, open(args.o, "w"), indent=1, sort_keys=True)
    print(f"{len(result)} benchmarks -> {args.o}")


def spreads(paths):
    runs = [load(p) for p in paths]
    names = sorted(set.intersection(*(set(r) for r in runs)))
    table = {}
    for n in names:
        values = [r[n] for r in runs]
        median = statistics.median(values)
        table[n] = (median, (max(values) - min(values)) / median, values)
    return table


def cmd_noise(args):
    table = spreads(args.runs)
    print(f"{'benchmark':58} {'median p50':>12} {'spread':>8} {'threshold':>9}")
    for n, (median, spread, _) in table.items():
        print(f"{n:58} {median:12.1f} {spread:8.1%} {max(args.floor, args.margin * spread):9.0%}")
    worst = max(s for _, s, _ in table.values())
    print(f"{len(args.runs)} runs; largest spread {worst:.1%}")


def cmd_baseline(args):
    table = spreads(args.runs)
    out = {
        "unit": "ns", "metric": "wall clock p50",
        "how": f"median of {len(args.runs)} runs' p50; threshold = max({args.floor}, {args.margin} x (max-min)/median of the runs)",
        "benchmarks": {n: round(m, 1) for n, (m, _, _) in table.items()},
        "thresholds": {n: round(max(args.floor, args.margin * s), 3) for n, (_, s, _) in table.items()},
    }
    json.dump(out, open(args.o, "w"), indent=1, sort_keys=True)
    print(f"baseline of {len(table)} benchmarks -> {args.o}")


def cmd_compare(args):
    base = json.load(open(args.baseline))
    current = load(args.current)
    only = re.compile(args.only) if args.only else None
    failures = 0
    print(f"{'benchmark':58} {'baseline':>11} {'current':>11} {'change':>8} {'limit':>6}")
    for name, reference in sorted(base["benchmarks"].items()):
        if only and not only.search(name):
            continue
        limit = base.get("thresholds", {}).get(name, args.threshold)
        if name not in current:
            print(f"{name:58} {reference:11.1f} {'missing':>11}")
            failures += 1
            continue
        change = current[name] / reference - 1
        verdict = ("slower" if args.informational else "REGRESSION") if change > limit else ""
        failures += bool(verdict)
        print(f"{name:58} {reference:11.1f} {current[name]:11.1f} {change:+8.1%} {limit:6.0%} {verdict}")
    if args.informational:
        print(f"wall clock, informational only: {failures} row(s) beyond the old noise thresholds "
              "(machine and load dependent; the verdict is the instruction-count gate)")
        return 0
    print(f"{failures} regression(s) beyond the thresholds" if failures else "no regression beyond the thresholds")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("extract"); p.add_argument("runs", nargs="+"); p.add_argument("-o", required=True)
    for name in ("noise", "baseline"):
        p = sub.add_parser(name); p.add_argument("runs", nargs="+")
        p.add_argument("--margin", type=float, default=2.0); p.add_argument("--floor", type=float, default=0.15)
        if name == "baseline":
            p.add_argument("-o", required=True)
    p = sub.add_parser("compare"); p.add_argument("baseline"); p.add_argument("current")
    p.add_argument("--threshold", type=float, default=0.25); p.add_argument("--only")
    p.add_argument("--informational", action="store_true")
    args = parser.parse_args()
    return {"extract": cmd_extract, "noise": cmd_noise, "baseline": cmd_baseline, "compare": cmd_compare}[args.command](args) or 0


if __name__ == "__main__":
    sys.exit(main())
