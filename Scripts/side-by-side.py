#!/usr/bin/env python3
"""Side by side: runs one scenario with two (or more) citysim binaries as alternating whole processes, the
order reversed every other round, and prints per binary the median wall time, the median of the loop's time
(`engine.wall_s` in the run's summary.json, or else the "events in N s" that `citysim run` prints, to 0.01 s) and
of the rest, and how many rounds the last binary was the faster of the first two. The machine is shared and its speed moves from minute to minute, so only pairs run
in the same minutes compare; Results/bench/pairs-s*.txt were made this way.

    Scripts/side-by-side.py 6 Scenarios/megacity.yaml /tmp/citysim-base .build/release/citysim
    Scripts/side-by-side.py 16 Benchmarks/reference/grid-city.yaml /tmp/base .build/release/citysim --outputs summary

Arguments after the binaries go to `citysim run` (each binary writes to its own folder under /tmp).
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def loop_seconds(folder, output):
    """The run's loop time: full precision from its summary.json, else as `citysim run` printed it."""
    try:
        with open(os.path.join(folder, "summary.json")) as summary:
            return float(json.load(summary)["engine"]["wall_s"])
    except (OSError, ValueError, KeyError, TypeError):
        found = re.search(r"events in ([0-9.]+) s", output)
        return float(found.group(1)) if found else None


def main(argv):
    if len(argv) < 4 or not argv[0].isdigit():
        sys.exit(__doc__)
    rounds, scenario = int(argv[0]), argv[1]
    binaries = []
    for argument in argv[2:]:
        if argument.startswith("-"):
            break
        binaries.append(argument)
    extra = argv[2 + len(binaries):]
    if len(binaries) < 2:
        sys.exit("side-by-side: give at least two binaries, then the extra arguments for `citysim run`")
    for b in binaries:
        if not (os.path.isfile(b) and os.access(b, os.X_OK)):
            sys.exit(f"side-by-side: {b}: not an executable file")
    walls = {b: [] for b in binaries}
    loops = {b: [] for b in binaries}
    folders = {b: tempfile.mkdtemp(prefix="side-by-side.") for b in binaries}
    try:
        for r in range(rounds):
            for b in (binaries if r % 2 == 0 else binaries[::-1]):
                started = time.perf_counter()
                done = subprocess.run([b, "run", scenario, "--out", folders[b]] + extra, capture_output=True, text=True)
                walls[b].append(time.perf_counter() - started)
                if done.returncode != 0:
                    sys.exit(f"side-by-side: {b} exited {done.returncode}:\n{done.stderr}")
                loop = loop_seconds(folders[b], done.stdout + done.stderr)
                if loop is not None:
                    loops[b].append(loop)
    finally:
        for folder in folders.values():
            shutil.rmtree(folder, ignore_errors=True)
    for b in binaries:
        line = f"{b}: median {statistics.median(walls[b]):.4f} s  min {min(walls[b]):.4f}"
        if loops[b]:
            outside = [w - l for w, l in zip(walls[b], loops[b])]
            line += f"  loop median {statistics.median(loops[b]):.4f}  outside the loop {statistics.median(outside):.4f}"
        print(line + "  all: " + " ".join(f"{w:.3f}" for w in walls[b]))
    a, b = binaries[0], binaries[-1]
    lower = sum(1 for x, y in zip(walls[a], walls[b]) if y < x)
    print(f"{b} lower in {lower} of {rounds} rounds")


if __name__ == "__main__":
    main(sys.argv[1:])
