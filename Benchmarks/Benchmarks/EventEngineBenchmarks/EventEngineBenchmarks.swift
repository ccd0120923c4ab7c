// EventQueue hold model, as Benchmarks/reference/heap.c: keep N events pending,
// then repeatedly pop the earliest and schedule one new event at now + Exp(mean 1).
//
// Delays come from a precomputed table of 2^20 exponential samples (SplitMix64
// seeded 42, -log1p(-u)), so the loop times the queue, not the generator. The
// queue is filled with N events once, before the first measured iteration, and
// stays at N pending. One iteration = 1,000 pop+schedule pairs (scaling factor
// kilo): wall clock is per 1,000 pairs, throughput counts pairs per second.

import Benchmark
import BenchFixtures
import EventEngine
import Foundation

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
                    try s.queue.schedule(payload, at: time + holdDelays[s.next & holdDelayMask])
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
