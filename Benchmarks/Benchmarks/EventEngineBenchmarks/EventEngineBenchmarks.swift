// EventQueue hold model, as Benchmarks/reference/heap.c: keep N events pending,
// then repeatedly pop the earliest and schedule one new event at now + Exp(mean 1).
//
// Delays come from a precomputed table of 2^20 exponential samples (SplitMix64
// seeded 42, -log1p(-u)), so the loop times the queue, not the generator. The
// queue is filled with N events once, before the first measured iteration, and
// stays at N pending. One iteration = 1,000 pop+schedule pairs (scaling factor
// kilo): wall clock is per 1,000 pairs, throughput counts pairs per second.

import Benchmark
import TestSupport
import EventEngine
import Foundation

/// A small payload (an enum of indices, 9 bytes), as CitySim's events are.
enum SmallPayload {
    case arrival
    case offerTimeout(request: Int32, generation: UInt32)
    case dropOff(driver: Int32)
}

let delayMask = (1 << 20) - 1
let delays: [Double] = {
    var random = SplitMix64(seed: 42)
    return (0...delayMask).map { _ in -log1p(-random.nextUnit()) }
}()

/// The queue at N pending and the position in the delay table.
final class HoldState {
    var queue: EventQueue<SmallPayload>
    var next = 0

    init(pending: Int) throws {
        queue = EventQueue(minimumCapacity: pending + 1)
        for i in 0..<pending {
            try queue.schedule(i % 3 == 0 ? .arrival : .offerTimeout(request: Int32(i), generation: 1), at: delays[i & delayMask])
        }
        next = pending
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 20_000
    )
    for pending in [1_000, 100_000, 1_000_000] {
        var state: HoldState?
        Benchmark("EventQueue<SmallPayload> hold, \(pending) pending") { benchmark in
            do {
                if state == nil { state = try HoldState(pending: pending) }
                let s = state!
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    let (time, payload) = s.queue.popNext()!
                    try s.queue.schedule(payload, at: time + delays[s.next & delayMask])
                    s.next &+= 1
                }
                benchmark.stopMeasurement()
                precondition(s.queue.count == pending)
            } catch {
                benchmark.error("\(error)")
            }
        }
    }
}
