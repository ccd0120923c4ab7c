#!/usr/bin/env python3
"""Attribute perf samples of the server to components, as a share and as µs per ride.

usage: perf script -i X.data | swift demangle | Scripts/cpu-profile-table.py US_PER_RIDE   (Scripts/cpu-profile.sh runs it)
Each sample goes to the first category (in the order below) one of whose patterns occurs in any
frame of its stack; a second table is by the leaf frame (self time): kernel, malloc/free,
retain/release, Swift concurrency runtime, everything else. A frame is matched by its function's name
and its library, not by its parameter and generic argument types: `f(_: DispatchCore.CustomerID)` is not
the dispatch core (session 19's caveat, fixed in session 20).
"""
import re
import sys
from collections import Counter

CATS = [
    ("SQLite commit: fdatasync", ["fdatasync", "file_fdatasync", "xfs_file_fsync", "ext4_sync_file"]),
    ("SQLite statements + commit (GRDB writer: WAL pwrite, fcntl locks)", ["sqlite3", "GRDB.", "__x64_sys_fcntl", "__x64_sys_pwrite64", "__x64_sys_pread64", "libsqlite3"]),
    ("command log JSON (CommandCoding)", ["CommandCoding"]),
    ("auth (token SHA-256, cache)", ["AuthenticationMiddleware", "AccountService.authenticate", "VerifiedTokens", "SHA256", "sha256"]),
    ("metrics middleware + Prometheus", ["RequestMetricsMiddleware", "ServiceMetrics", "Prometheus."]),
    ("logging (request logger, metadata)", ["LogRequestsMiddleware", "Logger.Storage", "LogHandler", "Logger.MetadataValue", "Logging.Logger.log", "RequestID"]),
    ("request body read (RideRequestReader/JSONDecoder)", ["RideRequestReader", "JSONDecoder", "collectBody", "collect(upTo"]),
    ("response body (RideBody.json)", ["RideBody", "JSONText"]),
    ("dispatch core", ["DispatchCore."]),
    ("host actor (execute, ledger, timers, persist)", ["DispatchHost"]),
    ("tracing spans", ["Tracing.", "withSpan"]),
    ("socket write (NIO flush + kernel TCP send)", ["flushNow", "sock_write_iter", "tcp_sendmsg", "writev", "PendingStreamWrites"]),
    ("lean ride path's own work (RideFastPath: parts, answer, its writes through the pipeline's encoders)", ["RideFastPath"]),
    ("socket read (NIO read + HTTP parse)", ["readFromSocket", "sock_read_iter", "tcp_recvmsg", "HTTPDecoder", "http_parser", "c_nio_llhttp", "ByteToMessageHandler"]),
    ("epoll_wait / event loop wake-ups (eventfd)", ["epoll_wait", "Epoll", "whenReady", "eventfd", "EventLoop.wakeup", "_wakeupSelector"]),
    ("Hummingbird routing, middleware chain, response writing", ["Hummingbird", "NIOAsyncChannel", "NIOAsyncWriter", "NIOHTTPTypes", "HTTPTypes."]),
    ("other NIO (pipeline, promises, scheduling)", ["NIOCore.", "NIOPosix.", "NIOHTTP1."]),
    ("thread wake-up / sleep (futex, scheduler)", ["futex", "schedule", "finish_task_switch"]),
    ("Swift concurrency runtime (task/job switching)", ["libswift_Concurrency", "swift_task", "swift_job", "libdispatch"]),
]
LEAF = [("kernel", ["[kernel.kallsyms]"]),
        ("malloc/free", ["malloc", "free", "_int_", "realloc", "calloc", "swift_slowAlloc", "swift_slowDealloc", "swift_allocObject", "swift_deallocObject"]),
        ("retain/release", ["swift_retain", "swift_release", "swift_bridgeObjectRetain", "swift_bridgeObjectRelease", "swift_unknownObject"]),
        ("Swift concurrency runtime", ["libswift_Concurrency"]),
        ("libdispatch", ["libdispatch"]),
        ("libc other", ["libc.so"]),
        ("Swift runtime other", ["libswiftCore"])]


def samples(lines):
    """Each sample's stack (leaf first) from `perf script` text."""
    stack = []
    for line in lines:
        if not line.strip():
            if stack:
                yield stack
            stack = []
        elif line.startswith(("\t", " ")):
            stack.append(line.strip())
    if stack:
        yield stack


FRAME = re.compile(r"^\S+\s+(?P<symbol>.*?)(?:\s+\((?P<library>[^()]*)\))?$")


def callee(frame):
    """`name library` of a `perf script` frame line (`ADDRESS SYMBOL+OFFSET (LIBRARY)`): the symbol without its
    offset, parameter lists, generic arguments and return types, so that types in a signature do not decide its category."""
    match = FRAME.match(frame)
    if not match:
        return frame
    symbol = re.sub(r"\+0x[0-9a-f]+$", "", match["symbol"]).replace("->", "→")
    for group in (r"\([^()]*\)", r"<[^<>]*>"):
        while True:
            shorter = re.sub(group, "", symbol)
            if shorter == symbol:
                break
            symbol = shorter
    symbol = re.sub(r"→.*?(?= in |$)", "", symbol)  # return types, up to a closure's "in"
    return f"{symbol} {match['library'] or ''}"


def first_match(frames, categories, default):
    names = [callee(f) for f in frames]
    for name, patterns in categories:
        if any(p in f for f in names for p in patterns):
            return name
    return default


def table(title, counts, n, us):
    print(f"| {title} | share | µs per ride |\n|---|---:|---:|")
    for name, k in counts.most_common():
        print(f"| {name} | {100 * k / n:.1f} % | {us * k / n:.1f} |")
    print(f"| total ({n} samples) | 100 % | {us:.1f} |\n")


def main():
    us = float(sys.argv[1]) if len(sys.argv) > 1 else 0
    where, leaves, n = Counter(), Counter(), 0
    for stack in samples(sys.stdin):
        n += 1
        where[first_match(stack, CATS, "other")] += 1
        leaves[first_match(stack[:1], LEAF, "our code and libraries (self)")] += 1
    table("where (first match along the stack)", where, n, us)
    table("self time (leaf frame)", leaves, n, us)


if __name__ == "__main__":
    main()
