#!/usr/bin/env python3
"""Check citysim's contraction-hierarchy travel times against networkx's Dijkstra.

Usage:
    swift run roadnet export Scenarios/osm/Helsinki.osm.pbf --out /tmp/road-check
    python3 Scripts/check-road-network.py /tmp/road-check [--max-abs 1e-6]

Reads edges.csv (tail,head,seconds: the drivable graph at free flow, exactly as citysim built it)
and pairs.csv (source,target,seconds: citysim's answers). Runs networkx's single-source Dijkstra
from every source, compares every pair, prints the agreement and exits non-zero when an absolute
difference exceeds --max-abs seconds or a pair is reachable in one router only.
Needs networkx (pip install networkx).
"""
import argparse
import csv
import sys

import networkx as nx


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("directory")
    parser.add_argument("--max-abs", type=float, default=1e-6, help="largest allowed absolute difference, seconds")
    args = parser.parse_args()

    graph = nx.DiGraph()
    with open(f"{args.directory}/edges.csv") as f:
        for row in csv.DictReader(f):
            u, v, w = int(row["tail"]), int(row["head"]), float(row["seconds"])
            # Parallel segments: keep the cheapest, as a shortest path would.
            if not graph.has_edge(u, v) or graph[u][v]["weight"] > w:
                graph.add_edge(u, v, weight=w)
    pairs = {}
    with open(f"{args.directory}/pairs.csv") as f:
        for row in csv.DictReader(f):
            pairs.setdefault(int(row["source"]), []).append((int(row["target"]), float(row["seconds"])))

    count, max_abs, max_rel, failures = 0, 0.0, 0.0, []
    for source, targets in sorted(pairs.items()):
        reference = nx.single_source_dijkstra_path_length(graph, source, weight="weight")
        for target, ours in targets:
            count += 1
            theirs = reference.get(target, float("inf"))
            if theirs == float("inf") or ours == float("inf"):
                if theirs != ours:
                    failures.append((source, target, ours, theirs))
                continue
            diff = abs(ours - theirs)
            max_abs = max(max_abs, diff)
            if theirs > 0:
                max_rel = max(max_rel, diff / theirs)
            if diff > args.max_abs:
                failures.append((source, target, ours, theirs))
    print(f"networkx {nx.__version__}: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges; "
          f"{count} pairs from {len(pairs)} sources; max abs error {max_abs:.3g} s, max rel error {max_rel:.3g}; "
          f"{len(failures)} disagreements")
    for source, target, ours, theirs in failures[:10]:
        print(f"  {source} -> {target}: citysim {ours}, networkx {theirs}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
