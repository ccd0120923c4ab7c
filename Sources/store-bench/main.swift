import CitySim
import DispatchCore
import DispatchService
import Foundation

// `store-bench [POSTGRES_URL]`: append throughput of the command log, batches of 1, 10 and 100
// commands, on SQLite (a temporary file) and, given a URL, on PostgreSQL (a schema of its own,
// dropped by hand: `DROP SCHEMA store_bench_… CASCADE`). Prints; asserts nothing.
//
//   swift build -c release --product store-bench && .build/release/store-bench postgres://citysim@127.0.0.1:5432/citysim
//
// `store-bench checkpoint [RIDES]`: the time of one checkpoint (encoding the host's state, storing it in memory,
// cutting the log) with RIDES rides held (default 150,000: a 30 s run at 5,000 rides/s), 5 times.

/// Appends `total` commands in batches of `batch` and returns the seconds it took.
func time(_ store: any DispatchStore, batch: Int, total: Int, from first: Int64) async throws -> Double {
    let start = ContinuousClock.now
    var sequence = first
    for _ in 0..<(total / batch) {
        let commands = (0..<batch).map { i in
            LoggedCommand(sequence: sequence + Int64(i), time: 1_700_000_000 + Double(sequence + Int64(i)),
                          command: .setAvailable(DriverID(Int(sequence) % 50 + 1), i % 2 == 0))
        }
        sequence += Int64(batch)
        try await store.append(commands)
    }
    return seconds(ContinuousClock.now - start)
}

/// A duration in seconds.
func seconds(_ elapsed: Duration) -> Double {
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func measure(_ name: String, _ store: any DispatchStore) async throws {
    var next: Int64 = 1
    for (batch, total) in [(1, 2_000), (10, 10_000), (100, 50_000)] {
        let seconds = try await time(store, batch: batch, total: total, from: next)
        next += Int64(total)
        let appends = Double(total / batch)
        print(String(format: "%-10@ batch %4d: %6d commands in %6.2f s  %9.0f commands/s  %8.0f appends/s  %7.3f ms/append",
                     name as NSString, batch, total, seconds, Double(total) / seconds, appends / seconds, seconds * 1000 / appends))
    }
}

/// Times `DispatchHost.checkpoint()` on an in-memory store holding `rides` rides of distinct customers in the smoke
/// scenario's city, without drivers (each ride is rejected at once and stays held: the manual clock never reaches
/// its archiving), five times, one more ride logged before each.
func checkpointBench(rides: Int) async throws {
    let scenario = try Scenario.load(path: "Scenarios/smoke.yaml")
    let host = try await DispatchHost(store: InMemoryDispatchStore(), clock: ManualClock()) { try scenario.makeDispatchCore() }
    func ride(_ customer: Int) async throws {
        _ = try await host.requestRide(customer: CustomerID(customer), from: Position(x: 500, y: 500),
                                       to: Position(x: 3_500, y: 2_500), patience: 0)
    }
    for customer in 1...rides { try await ride(customer) }
    for round in 1...5 {
        try await ride(rides + round)
        let start = ContinuousClock.now
        guard try await host.checkpoint() != nil else {
            FileHandle.standardError.write(Data("store-bench: the host took no checkpoint\n".utf8))
            exit(1)
        }
        let took = seconds(ContinuousClock.now - start)
        print(String(format: "checkpoint of %d rides: %.3f s, %.2f µs per ride", rides + round, took, took * 1e6 / Double(rides + round)))
    }
}

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "checkpoint" {
    let given = CommandLine.arguments.dropFirst(2).first
    guard let rides = given.map({ Int($0) }) ?? 150_000, rides > 0 else {
        FileHandle.standardError.write(Data("store-bench checkpoint: RIDES must be a whole number above 0, not \(given!)\n".utf8))
        exit(2)
    }
    try await checkpointBench(rides: rides)
    exit(0)
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
try await measure("sqlite", try SQLiteDispatchStore(path: folder.appendingPathComponent("bench.sqlite").path))
if CommandLine.arguments.count > 1 {
    var url = try PostgresURL(CommandLine.arguments[1])
    url.schema = "store_bench_\(Int(Date().timeIntervalSince1970))"
    let store = try await PostgresDispatchStore(url: url)
    try await measure("postgres", store)
    await store.close()
    print("PostgreSQL schema left for inspection: \(url.schema!)")
}
