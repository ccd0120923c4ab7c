#!/usr/bin/env python3
"""Runs the grid city three ways side by side — citysim, SimPy, plain-Python heapq — and compares them.

Each pair (replication) runs the three models one after another as whole processes, in an order that
rotates from pair to pair, with the same seed (each model has its own generator, so the replications are
independent draws of the same model). For each model it reports the median wall time and peak RSS, and the
mean with a 95 % Student-t confidence interval of mean wait, rejected share and utilisation; two models
agree on a figure when the 95 % interval of their difference (Welch) contains zero.

usage: python3 Benchmarks/reference/yardstick.py [--pairs 5] [--citysim .build/release/citysim]
                                                 [--outputs all|summary] [--out Results/bench/yardstick]
Exit status: 0 when the three agree on every figure, 1 when they do not, 2 on a usage or run error.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
FIGURES = ("mean_wait_s", "rejected_share", "utilization")
# Two-sided 95 % Student-t quantiles by degrees of freedom (1 … 30); larger df use 1.96.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
       2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
       2.045, 2.042]


def t95(df):
    return T95[int(df) - 1] if 1 <= df <= len(T95) else 1.96


def run_process(argv):
    """Runs argv as a whole process; returns (stdout, wall seconds, peak RSS in MB from wait4)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            sys.exit(f"yardstick: {' '.join(argv)} failed ({process.returncode}): {err.read().decode()[-2000:]}")
        return out.read().decode(), wall, usage.ru_maxrss / 1024.0


def citysim_figures(stdout):
    summary = json.loads(stdout)
    requests = summary["requests"]
    return {
        "mean_wait_s": summary["wait_s"]["mean"],
        "rejected_share": requests["rejected"] / requests["generated"],
        "utilization": summary["fleet"]["utilization"],
        "requests": requests["generated"],
        "events": summary["engine"]["events"],
    }


def python_figures(stdout):
    return json.loads(stdout)


def mean_ci(values):
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan"), float("nan")
    s = statistics.stdev(values)
    return m, s / math.sqrt(len(values)), t95(len(values) - 1) * s / math.sqrt(len(values))


def agree(a, b):
    """Welch: does the 95 % interval of mean(a) − mean(b) contain zero? Returns (ok, difference, half-width)."""
    ma, sea, _ = mean_ci(a)
    mb, seb, _ = mean_ci(b)
    se = math.sqrt(sea ** 2 + seb ** 2)
    if se == 0:
        return ma == mb, ma - mb, 0.0
    df = (sea ** 2 + seb ** 2) ** 2 / (sea ** 4 / (len(a) - 1) + seb ** 4 / (len(b) - 1))
    half = t95(max(1, math.floor(df))) * se
    return abs(ma - mb) <= half, ma - mb, half


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--citysim", default=os.path.join(ROOT, ".build", "release", "citysim"))
    parser.add_argument("--outputs", choices=("all", "summary"), default="all",
                        help="citysim's outputs: every file (all) or the summary only (--outputs summary)")
    parser.add_argument("--out", default=os.path.join(ROOT, "Results", "bench", "yardstick"))
    args = parser.parse_args()
    if args.pairs < 2:
        parser.error("--pairs must be at least 2 (confidence intervals need replications)")
    if not os.access(args.citysim, os.X_OK):
        parser.error(f"{args.citysim}: no citysim binary (build it: swift build -c release --product citysim)")
    scenario = os.path.join(HERE, "grid-city.yaml")
    work = tempfile.mkdtemp(prefix="yardstick-")
    models = {
        "citysim": lambda seed: [args.citysim, "run", scenario, "--seed", str(seed), "--json",
                                 "--out", os.path.join(work, f"run-{seed}")]
        + (["--outputs", "summary"] if args.outputs == "summary" else []),
        "simpy": lambda seed: [sys.executable, os.path.join(HERE, "grid_simpy.py"), str(seed)],
        "heapq": lambda seed: [sys.executable, os.path.join(HERE, "grid_heapq.py"), str(seed)],
    }
    names = list(models)
    rows = []
    for pair in range(args.pairs):
        seed = pair + 1
        order = names[pair % 3:] + names[:pair % 3]
        for name in order:
            stdout, wall, rss = run_process(models[name](seed))
            figures = citysim_figures(stdout) if name == "citysim" else python_figures(stdout)
            rows.append({"pair": pair, "seed": seed, "model": name, "wall_s": wall, "peak_rss_mb": rss,
                         **{k: figures[k] for k in FIGURES}, "requests": figures["requests"],
                         "events": figures["events"]})
            print(f"pair {pair + 1}/{args.pairs} {name:8s} {wall:6.2f} s {rss:7.1f} MB  "
                  + "  ".join(f"{k}={figures[k]:.4f}" for k in FIGURES), file=sys.stderr, flush=True)

    by_model = {n: [r for r in rows if r["model"] == n] for n in names}
    report = {"pairs": args.pairs, "citysim_outputs": args.outputs, "models": {}, "ratios": {}, "agreement": []}
    for name, runs in by_model.items():
        entry = {"median_wall_s": statistics.median(r["wall_s"] for r in runs),
                 "median_peak_rss_mb": statistics.median(r["peak_rss_mb"] for r in runs)}
        for figure in FIGURES:
            m, se, half = mean_ci([r[figure] for r in runs])
            entry[figure] = {"mean": m, "ci95_half_width": half}
        report["models"][name] = entry
    for other in ("simpy", "heapq"):
        per_pair = [o["wall_s"] / c["wall_s"] for o, c in zip(by_model[other], by_model["citysim"])]
        report["ratios"][f"{other}_over_citysim"] = {
            "ratio_of_medians": report["models"][other]["median_wall_s"] / report["models"]["citysim"]["median_wall_s"],
            "median_of_pair_ratios": statistics.median(per_pair)}
    all_agree = True
    for a, b in (("citysim", "simpy"), ("citysim", "heapq"), ("simpy", "heapq")):
        for figure in FIGURES:
            ok, diff, half = agree([r[figure] for r in by_model[a]], [r[figure] for r in by_model[b]])
            all_agree &= ok
            report["agreement"].append({"models": [a, b], "figure": figure, "difference": diff,
                                        "ci95_half_width": half, "agree": ok})
    report["all_agree"] = all_agree
    report["runs"] = rows

    lines = ["| model | median wall s | median peak RSS MB | mean wait s | rejected share | utilisation |",
             "|---|---:|---:|---:|---:|---:|"]
    for name in names:
        e = report["models"][name]
        lines.append(f"| {name} | {e['median_wall_s']:.2f} | {e['median_peak_rss_mb']:.0f} | "
                     + " | ".join(f"{e[f]['mean']:.4g} ± {e[f]['ci95_half_width']:.2g}" for f in FIGURES) + " |")
    lines.append("")
    for key, value in report["ratios"].items():
        lines.append(f"- {key.replace('_', ' ')}: {value['ratio_of_medians']:.1f}× (ratio of medians), "
                     f"{value['median_of_pair_ratios']:.1f}× (median of pair ratios)")
    for check in report["agreement"]:
        if not check["agree"]:
            lines.append(f"- DISAGREE: {check['models'][0]} vs {check['models'][1]} on {check['figure']}: "
                         f"difference {check['difference']:.4g}, 95 % half-width {check['ci95_half_width']:.2g}")
    lines.append(f"- all three agree on every figure: {'yes' if all_agree else 'NO'}")
    text = "\n".join(lines)
    print(text)
    if args.out:
        os.makedirs(os.path.dirname(args.out), exist_ok=True)
        with open(args.out + ".json", "w") as f:
            json.dump(report, f, indent=2)
        with open(args.out + ".md", "w") as f:
            f.write(text + "\n")
    sys.exit(0 if all_agree else 1)


if __name__ == "__main__":
    main()
