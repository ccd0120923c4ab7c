#!/usr/bin/env python3
"""Unit tests of .ci/bench_gate.py: the callgrind parser, the verdict, the baseline check and the
slowdown injection. Run: python3 .ci/test_bench_gate.py (stdlib only, well under a second)."""
import contextlib, io, json, os, sys, tempfile, unittest
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_gate  # noqa: E402

# A callgrind file in the format valgrind 3.19 writes: compressed names "(id) name" defined once,
# then "(id)"; a calls= line whose next cost line is the inclusive cost of the call.
CALLGRIND = """# callgrind format
version: 1
events: Ir
ob=(1) /usr/lib/x86_64-linux-gnu/libc.so.6
fn=(1) __memset_sse2_unaligned
0 40
ob=(2) /tmp/BenchGate
fn=(2) citysim_gate_measured_decision
0 100
cob=(1)
cfn=(3) malloc
calls=3 0
0 90
cob=(1)
cfn=(1)
calls=2 0
0 40
cfn=(3)
calls=1 0
0 30
ob=(1)
fn=(4) posix_memalign
0 5
cfn=(3)
calls=7 0
0 70
fn=(3)
0 120
totals: 335
"""


def workload(instructions, mallocs, operations=100, key="w", order=0):
    return {"key": key, "name": key, "unit": "op", "operations": operations, "order": order,
            "instructions": instructions, "mallocs": mallocs, "libc_memory_instructions": 0}


def document(workloads, arch="x86_64"):
    return {"machine": {"arch": arch}, "workloads": {w["key"]: w for w in workloads}}


class GateTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()

    def write(self, name, data):
        path = os.path.join(self.folder, name)
        with open(path, "w") as f:
            f.write(data if isinstance(data, str) else json.dumps(data))
        return path

    def compare(self, base, current):
        args = SimpleNamespace(baseline=self.write("base.json", base), current=self.write("now.json", current),
                               only=None)
        with contextlib.redirect_stdout(io.StringIO()):
            return bench_gate.cmd_compare(args)

    def test_parser_reads_totals_malloc_calls_from_outside_libc_and_libc_memory_self_cost(self):
        total, mallocs, libc_memory = bench_gate.parse_callgrind(self.write("cg.out", CALLGRIND))
        self.assertEqual(total, 335)
        self.assertEqual(mallocs, 4)          # 3 + 1 calls to the compressed name (3) = malloc; libc's own not
        self.assertEqual(libc_memory, 40)     # memset's self cost only, not the inclusive call cost

    def test_unchanged_counts_pass(self):
        self.assertEqual(self.compare(document([workload(10_000, 50)]), document([workload(10_000, 50)])), 0)

    def test_instructions_beyond_two_percent_fail_and_within_pass(self):
        base = document([workload(1_000_000, 50)])
        self.assertEqual(self.compare(base, document([workload(1_019_900, 50)])), 0)
        self.assertEqual(self.compare(base, document([workload(1_020_100, 50)])), 1)

    def test_mallocs_beyond_one_percent_plus_one_per_run_fail(self):
        base = document([workload(10_000, 1_000)])
        self.assertEqual(self.compare(base, document([workload(10_000, 1_011)])), 0)  # 1000 × 1.01 + 1
        self.assertEqual(self.compare(base, document([workload(10_000, 1_012)])), 1)

    def test_a_malloc_where_there_was_none_fails(self):
        base = document([workload(10_000, 0)])
        self.assertEqual(self.compare(base, document([workload(10_000, 1)])), 0)  # the one-per-run slack
        self.assertEqual(self.compare(base, document([workload(10_000, 2)])), 1)

    def test_a_missing_workload_fails(self):
        base = document([workload(10_000, 0, key="a"), workload(10_000, 0, key="b")])
        self.assertEqual(self.compare(base, document([workload(10_000, 0, key="a")])), 1)

    def test_another_architecture_is_refused(self):
        with self.assertRaises(SystemExit) as stop:
            self.compare(document([workload(1, 0)]), document([workload(1, 0)], arch="aarch64"))
        self.assertIn("architectures", str(stop.exception))

    def test_baseline_refuses_runs_that_differ(self):
        run = {"metric": "m", "valgrind": "v", "machine": {}, "swift": "s"}
        one = self.write("1.json", dict(run, workloads={"w": workload(100, 1)}))
        two = self.write("2.json", dict(run, workloads={"w": workload(101, 1)}))
        args = SimpleNamespace(runs=[one, two], o=os.path.join(self.folder, "b.json"), meta=None)
        with self.assertRaises(SystemExit):
            bench_gate.cmd_baseline(args)
        args.runs = [one, one]
        with contextlib.redirect_stdout(io.StringIO()):
            bench_gate.cmd_baseline(args)
        self.assertEqual(json.load(open(args.o))["workloads"]["w"]["instructions"], 100)

    def test_slowdown_goes_into_zone_fifo_select_taxi_only(self):
        source = ("public struct ZoneFIFOPolicy: DispatchPolicy {\n"
                  "    public func selectTaxi(for request: OpenRequest, in view: DispatchView) -> TaxiChoice? {\n"
                  "        return nil\n    }\n}\n"
                  "public struct NearestIdlePolicy: DispatchPolicy {\n"
                  "    public func selectTaxi(for request: OpenRequest, in view: DispatchView) -> TaxiChoice? {\n"
                  "        return nil\n    }\n}\n")
        path = self.write("ZoneFIFOPolicy.swift", source)
        with contextlib.redirect_stdout(io.StringIO()):
            bench_gate.cmd_inject_slowdown(SimpleNamespace(file=path))
        lines = open(path).read().splitlines()
        self.assertIn("injected by .ci/bench --self-test", lines[2])
        self.assertEqual(sum("injected" in line for line in lines), 1)

    def test_slowdown_without_its_anchor_stops(self):
        path = self.write("ZoneFIFOPolicy.swift", "struct Other {}\n")
        with self.assertRaises(SystemExit):
            bench_gate.cmd_inject_slowdown(SimpleNamespace(file=path))


if __name__ == "__main__":
    unittest.main()
