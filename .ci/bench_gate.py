#!/usr/bin/env python3
"""The benchmark regression gate: instruction and malloc counts under callgrind (stdlib only).

  measure --binary BenchGate -o CURRENT.json [--jobs N] [--only REGEX] [--keep DIR]
      runs every workload of `BenchGate list` under valgrind --tool=callgrind, counting only
      inside the citysim_gate_measured_* functions, and writes per workload the measured
      operations, instructions (Ir), malloc-family calls and the share of Ir spent in libc's
      memory and string functions (the part whose code glibc picks per CPU).
  compare BASELINE.json CURRENT.json [--only REGEX]
      prints the table; exit 1 when a workload's instructions or mallocs per operation exceed
      the baseline by more than the baseline's thresholds, or a workload is missing.
  baseline CURRENT.json [CURRENT2.json ...] -o Results/bench/gate-baseline.json
      writes the baseline; with several runs they must agree exactly (else exit 1: the counts
      are not deterministic and the gate would be unsound).
  inject-slowdown Sources/DispatchCore/Policies/ZoneFIFOPolicy.swift
      (for .ci/bench --self-test, on a temp copy only) inserts SLOWDOWN_LINE as the first line of
      ZoneFIFOPolicy.selectTaxi.
"""
import argparse, concurrent.futures, json, os, platform, re, shutil, subprocess, sys, tempfile, time

TOGGLE = "citysim_gate_measured_*"
MALLOC_FAMILY = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "valloc"}
# Callers kept in a malloc-family context's name: deep enough to reach the measured function from
# any allocation in the core (about 15 frames today).
CALLER_DEPTH = 40
# glibc chooses these per CPU (ifunc: sse2 / avx2 / evex / erms variants), so their instruction
# counts are the part of a figure that can differ between machines for the same binary.
LIBC_MEMORY = re.compile(r"^_*(mem|str|wmem|wcs|stp)[a-z]*(_|@|$)")
# glibc picks its memory and string functions per CPU (ifunc: sse2 / avx2 / evex / erms
# variants) and sizes its copy strategy from the caches; on this machine an SSE2-only choice
# changed the counts by up to 4.2 %. The gate pins them to the x86-64 baseline choice, which every
# x86-64 machine can make, so the counts do not depend on the CPU the job lands on.
GLIBC_TUNABLES = ("glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX_Fast_Unaligned_Load,"
                  "-ERMS,-FSRM,-Prefer_ERMS,-Prefer_FSRM,-SSSE3,-SSE4_1,-SSE4_2,-BMI1,-BMI2,-LZCNT,-POPCNT,-MOVBE,"
                  "-RTM,-EVEX,-Fast_Unaligned_Load,-Fast_Unaligned_Copy,-Slow_BSF,-Fast_Rep_String"
                  ":glibc.cpu.x86_non_temporal_threshold=0x40000000")
# Relative limits on instructions and mallocs per operation; see Benchmarks/README.md.
DEFAULT_THRESHOLDS = {"instructions": 0.02, "mallocs": 0.01}


def function_name(name):
    """The function of a callgrind name: without its recursion depth ('2) or caller context ('caller'…)."""
    return name.split("'", 1)[0]


def is_libc(obj):
    return bool(obj) and obj.endswith(("/libc.so.6", "/libc.so"))


def parse_callgrind(path):
    """(Ir collected, calls to the malloc family, Ir of libc memory/string functions)."""
    names = {"fn": {}, "ob": {}}
    total = mallocs = libc_memory = 0
    current_fn = current_ob = None
    fn_ob = None
    pending_call = None  # the cfn of the calls= line just read: its next cost line is inclusive
    cfn = None
    totals_line = None

    def resolve(kind, value):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            return value
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), value)

    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            head = line[0]
            if head.isdigit() or head in "+-*":
                fields = line.split()
                ir = int(fields[1]) if len(fields) > 1 else 0
                if pending_call is not None:
                    pending_call = None  # inclusive cost of a call: counted in the callee's self cost
                else:
                    if is_libc(fn_ob) and LIBC_MEMORY.match(current_fn or ""):
                        libc_memory += ir
                continue
            key, _, value = line.partition("=")
            if key == "ob":
                current_ob = resolve("ob", value)
            elif key == "fn":
                current_fn = function_name(resolve("fn", value))
                fn_ob = current_ob
            elif key == "cob":
                resolve("ob", value)
            elif key == "cfn":
                cfn = function_name(resolve("fn", value))
            elif key == "calls":
                # Only calls from outside libc: its posix_memalign calls malloc itself.
                if cfn in MALLOC_FAMILY and not is_libc(fn_ob):
                    mallocs += int(value.split()[0])
                pending_call = cfn
            elif key in ("totals", "summary"):
                totals_line = int(value.split()[0]) if value.strip() else 0
            elif line.startswith(("totals:", "summary:")):
                totals_line = int(line.split(":", 1)[1].split()[0])
    total = totals_line or 0
    return total, mallocs, libc_memory


def workloads(binary):
    out = subprocess.run([binary, "list"], check=True, capture_output=True, text=True).stdout
    result = []
    for order, line in enumerate(out.splitlines()):
        key, operations, unit, name = line.split("\t")
        result.append({"key": key, "operations": int(operations), "unit": unit, "name": name, "order": order})
    return result


def measure_one(binary, workload, folder, valgrind):
    out = os.path.join(folder, f"callgrind.{workload['key']}.out")
    # Run as ./BenchGate from its folder: the client's argv[0] (and so its stack layout) is the
    # same whatever the folder is called.
    # Each malloc-family function gets its own context per chain of callers. Without it callgrind adds
    # the calls made while collection is off (the workload's set-up) to the same caller-callee arcs
    # as the measured ones: batch 50k counted its 50k-taxi fleet's cell arrays, 2,000 "mallocs per
    # epoch" where the epoch itself makes ~470. Set-up contexts then carry no cost and are not written.
    separate = [f"--separate-callers{CALLER_DEPTH}={name}" for name in sorted(MALLOC_FAMILY)]
    command = [valgrind, "--tool=callgrind", f"--callgrind-out-file={os.path.abspath(out)}", "--collect-atstart=no",
               f"--toggle-collect={TOGGLE}", *separate, "./" + os.path.basename(binary), "run", workload["key"]]
    env = {
        # Swift seeds its hashing per process; fixed hashing makes Dictionary and Set layouts, and
        # so the counts, the same in every run.
        "SWIFT_DETERMINISTIC_HASHING": "1",
        "GLIBC_TUNABLES": GLIBC_TUNABLES,
        # A fixed environment, not the caller's: with `env -i` the reservation-heavy run made
        # 4 % fewer mallocs than with a login shell's environment.
        "PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC",
    }
    started = time.monotonic()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=os.path.dirname(binary))
    seconds = time.monotonic() - started
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-15:])
        raise RuntimeError(f"workload {workload['key']} exited {done.returncode}:\n{tail}")
    instructions, mallocs, libc_memory = parse_callgrind(out)
    if instructions == 0:
        raise RuntimeError(f"workload {workload['key']}: callgrind counted no instruction inside {TOGGLE} "
                           "(renamed or inlined measured function?)")
    return dict(workload, instructions=instructions, mallocs=mallocs, libc_memory_instructions=libc_memory,
                valgrind_seconds=round(seconds, 1))


def cmd_measure(args):
    items = [w for w in workloads(args.binary) if not args.only or re.search(args.only, w["key"])]
    if not items:
        sys.exit(f"bench_gate: no workload matches {args.only!r}")
    folder = args.keep or tempfile.mkdtemp(prefix="citysim-gate.")
    os.makedirs(folder, exist_ok=True)
    # valgrind 3.19 cannot read the DWARF 5 that swiftc writes ("unhandled dwarf2 abbrev form"):
    # count a copy without debug info (the symbol table, and so the function names, stay).
    binary = os.path.join(tempfile.mkdtemp(prefix="citysim-gate-bin."), "BenchGate")
    subprocess.run(["objcopy", "--strip-debug", args.binary, binary], check=True)
    valgrind = shutil.which(args.valgrind) or sys.exit(f"bench_gate: no {args.valgrind} on PATH (apt-get install valgrind)")
    valgrind_version = subprocess.run([valgrind, "--version"], capture_output=True, text=True).stdout.strip()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(measure_one, binary, w, folder, valgrind): w for w in items}
        for future in concurrent.futures.as_completed(futures):
            try:
                r = future.result()
            except RuntimeError as error:
                sys.exit(f"bench_gate: {error}")
            results[r["key"]] = r
            print(f"  {r['key']:22} {r['instructions']:>15,} Ir {r['mallocs']:>9,} mallocs "
                  f"({r['valgrind_seconds']} s under callgrind)", flush=True)
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    out = {"metric": "callgrind Ir and malloc-family calls inside citysim_gate_measured_*", "swift": "".join(swift),
           "valgrind": valgrind_version, "machine": machine(), "workloads": dict(sorted(results.items()))}
    json.dump(out, open(args.o, "w"), indent=1, sort_keys=True)
    print(f"{len(results)} workloads -> {args.o}")


def machine():
    model = ""
    try:
        model = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {"cpu": model, "nproc": os.cpu_count(), "arch": platform.machine(),
            "libc": " ".join(platform.libc_ver()), "glibc_tunables": GLIBC_TUNABLES}


def per_op(w, metric):
    return w[metric] / w["operations"]


def cmd_compare(args):
    base, current = json.load(open(args.baseline)), json.load(open(args.current))
    limits = dict(DEFAULT_THRESHOLDS, **base.get("thresholds", {}))
    only = re.compile(args.only) if args.only else None
    failures = 0
    arch = (base.get("machine", {}).get("arch"), current.get("machine", {}).get("arch"))
    if arch[0] != arch[1]:
        sys.exit(f"bench_gate: the baseline was counted on {arch[0]}, this run on {arch[1]}: instruction counts "
                 "of different architectures cannot be compared (record a baseline per architecture)")
    for what, old, new in (("valgrind", base.get("valgrind"), current.get("valgrind")),
                           ("libc", base.get("machine", {}).get("libc"), current.get("machine", {}).get("libc")),
                           ("swift", base.get("swift"), current.get("swift"))):
        if old and new and old != new:
            print(f"note: {what} differs from the baseline's ({old} -> {new}); counts may move for that reason alone")
    print(f"instructions (callgrind Ir) and mallocs per operation; limits +{limits['instructions']:.0%} Ir, "
          f"+{limits['mallocs']:.0%} mallocs")
    print(f"{'workload':46} {'unit':>8} {'Ir base':>12} {'Ir now':>12} {'change':>8} "
          f"{'malloc base':>11} {'now':>9} {'change':>8}  verdict")
    for key, b in sorted(base["workloads"].items(), key=lambda item: item[1].get("order", 0)):
        if only and not only.search(key):
            continue
        c = current["workloads"].get(key)
        if c is None:
            print(f"{b['name']:46} {b['unit']:>8} {per_op(b, 'instructions'):12,.0f} {'missing':>12}  MISSING")
            failures += 1
            continue
        verdicts = []
        changes = {}
        for metric in ("instructions", "mallocs"):
            before, after = per_op(b, metric), per_op(c, metric)
            changes[metric] = (after / before - 1) if before else (0.0 if after == 0 else float("inf"))
            # mallocs: an exact count, so the limit is relative with one allocation per measured
            # run of slack (table growth that lands one operation earlier or later).
            allowed = before * (1 + limits[metric]) + (1 / c["operations"] if metric == "mallocs" else 0)
            if after > allowed:
                verdicts.append("REGRESSION " + ("Ir" if metric == "instructions" else "mallocs"))
        failures += bool(verdicts)
        print(f"{b['name']:46} {b['unit']:>8} {per_op(b, 'instructions'):12,.0f} {per_op(c, 'instructions'):12,.0f} "
              f"{changes['instructions']:+8.2%} {per_op(b, 'mallocs'):11,.2f} {per_op(c, 'mallocs'):9,.2f} "
              f"{changes['mallocs']:+8.2%}  {', '.join(verdicts) or 'ok'}")
    extra = sorted(set(current["workloads"]) - set(base["workloads"]))
    if extra:
        print(f"not in the baseline (not gated): {', '.join(extra)}")
    print(f"{failures} regression(s) beyond the thresholds" if failures else "no regression beyond the thresholds")
    return 1 if failures else 0


def cmd_baseline(args):
    runs = [json.load(open(p)) for p in args.runs]
    first = runs[0]
    for other, path in zip(runs[1:], args.runs[1:]):
        for key, w in first["workloads"].items():
            o = other["workloads"].get(key, {})
            if (o.get("instructions"), o.get("mallocs")) != (w["instructions"], w["mallocs"]):
                sys.exit(f"bench_gate: {key} differs between {args.runs[0]} and {path}: "
                         f"{w['instructions']} / {w['mallocs']} vs {o.get('instructions')} / {o.get('mallocs')}")
    keep = ("key", "name", "unit", "operations", "order", "instructions", "mallocs", "libc_memory_instructions")
    out = {
        "metric": first["metric"], "valgrind": first["valgrind"], "machine": first["machine"], "swift": first["swift"],
        "how": f"{len(runs)} run(s), identical counts; .ci/bench --baseline",
        "thresholds": DEFAULT_THRESHOLDS,
        "workloads": {k: {f: w[f] for f in keep} for k, w in first["workloads"].items()},
    }
    for key, value in (args.meta or []):
        out[key] = value
    json.dump(out, open(args.o, "w"), indent=1, sort_keys=True)
    print(f"gate baseline of {len(out['workloads'])} workloads -> {args.o}")

# The documented slowdown of the self-test: dependent floating-point work on a value the compiler
# cannot know (argc), on every ZoneFIFO decision.
SLOWDOWN_LINE = ("        var spin = Double(CommandLine.argc); for _ in 0..<SLOWDOWN_STEPS { spin = spin * 1.0000001 + 1e-9 }; "
                 "if spin.isNaN { print(spin) }  // injected by .ci/bench --self-test")
SLOWDOWN_STEPS = 150


def cmd_inject_slowdown(args):
    text = open(args.file).read()
    policy = text.find("struct ZoneFIFOPolicy")
    match = re.compile(r"func selectTaxi\([^\n]*\{\n").search(text, policy) if policy >= 0 else None
    if match is None:
        sys.exit(f"bench_gate: no ZoneFIFOPolicy.selectTaxi in {args.file}: update inject-slowdown")
    line = SLOWDOWN_LINE.replace("SLOWDOWN_STEPS", str(SLOWDOWN_STEPS))
    open(args.file, "w").write(text[:match.end()] + line + "\n" + text[match.end():])
    print(f"slowdown injected in {args.file}:\n{line.strip()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("measure"); p.add_argument("--binary", required=True); p.add_argument("-o", required=True)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1); p.add_argument("--only")
    p.add_argument("--keep"); p.add_argument("--valgrind", default="valgrind")
    p = sub.add_parser("compare"); p.add_argument("baseline"); p.add_argument("current"); p.add_argument("--only")
    p = sub.add_parser("baseline"); p.add_argument("runs", nargs="+"); p.add_argument("-o", required=True)
    p.add_argument("--meta", nargs=2, action="append", metavar=("KEY", "VALUE"))
    p = sub.add_parser("inject-slowdown"); p.add_argument("file")
    args = parser.parse_args()
    commands = {"measure": cmd_measure, "compare": cmd_compare, "baseline": cmd_baseline,
                "inject-slowdown": cmd_inject_slowdown}
    return commands[args.command](args) or 0


if __name__ == "__main__":
    sys.exit(main())
