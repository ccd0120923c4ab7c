// The event-queue hold model of Benchmarks/reference/heap.c, shared by the
// EventEngineBenchmarks suite and the instruction-count gate.

import EventEngine
import Foundation
import TestSupport

/// A small payload (an enum of indices, 9 bytes), as CitySim's events are.
public enum SmallPayload {
    case arrival
    case offerTimeout(request: Int32, generation: UInt32)
    case dropOff(driver: Int32)
}

/// Index mask of `holdDelays` (2^20 entries).
public let holdDelayMask = (1 << 20) - 1

/// 2^20 exponential delays of mean 1 (SplitMix64 seeded 42, `-log1p(-u)`), so the hold loop
/// times the queue, not the generator.
public let holdDelays: [Double] = {
    var random = SplitMix64(seed: 42)
    return (0...holdDelayMask).map { _ in -log1p(-random.nextUnit()) }
}()

/// An `EventQueue` kept at N pending and the position in the delay table.
///
/// Invariant: `queue.count` is N after every `holdPair()`: each pops one event and schedules one.
public final class HoldState {
    public var queue: EventQueue<SmallPayload>
    public var next = 0

    public init(pending: Int) throws {
        queue = EventQueue(minimumCapacity: pending + 1)
        for i in 0..<pending {
            try queue.schedule(i % 3 == 0 ? .arrival : .offerTimeout(request: Int32(i), generation: 1),
                               at: holdDelays[i & holdDelayMask])
        }
        next = pending
    }
}
