// One dispatch decision of DispatchCore: from `.requestRide` to the `.offer` effect.
//
// Each benchmark owns one core with N available taxis spread uniformly (seeded
// SplitMix64) over a 30 × 30 km city of 2 km² zones. An iteration is
//
//   [unmeasured] draw origin and destination uniformly in the city
//   [measured]   core.handle(.requestRide(..., patience: 0)) -> [.offer, .wake(offer timeout)]
//   [unmeasured] check the .offer, then core.handle(.cancel) which withdraws the offer
//                and puts the taxi back at its old queue place (and in the spatial index)
//
// so the fleet is the same before every iteration. The measured part is the whole
// `handle` call: validation, the request record, the policy's choice, the D15
// FIFO-violation count and the offer with its timer effect. The core's request table
// grows by one record per iteration (amortised hash-table growth is included).
//
// Batch: one decision is one epoch: 50 `.requestRide`s (each only queued) and the
// `.timerFired(batchEpoch)` that matches them all (8 nearest candidates each,
// min-cost matching) and emits the 50 offers. The 50 cancels are unmeasured.
// The custom metric "ns per request" is the measured epoch time / 50.
//
// ZoneFIFO CAT: 10 % of the zones (drawn at random) are kept empty of taxis and every
// request starts in one of them, so the origin queue is empty and the policy falls
// back to the ring search of the spatial index for the closest available taxi (CAT).

import Benchmark
import BenchFixtures
import DispatchCore
import Foundation

/// The three fleet sizes of every policy.
let fleetSizes = [1_000, 10_000, 50_000]
let batchRequests = 50
let nsPerRequest = BenchmarkMetric.custom("ns per request", polarity: .prefersSmaller, useScalingFactor: false)

/// One immediate decision per iteration (ZoneFIFO, NearestIdle).
func immediateDecision(_ name: String, taxis: Int, emptyZoneShare: Double = 0,
                       policy: @escaping () -> any DispatchPolicy) {
    var fixture: DispatchFixture?
    Benchmark("\(name) \(taxis / 1000)k taxis") { benchmark in
        do {
            if fixture == nil {
                fixture = try DispatchFixture(policy: policy(), taxis: taxis, seed: UInt64(taxis),
                                              emptyZoneShare: emptyZoneShare)
            }
            let f = fixture!
            let customer = CustomerID(1)
            let origin = try f.randomOrigin(), destination = f.randomPosition()
            let id = RequestID(f.nextRequest)
            f.nextRequest += 1
            benchmark.startMeasurement()
            try f.core.handle(.requestRide(id, customer: customer, origin: origin, destination: destination, patience: 0),
                              at: f.time, into: &f.effects)
            benchmark.stopMeasurement()
            guard case .offer = f.effects.first else {
                benchmark.error("expected an offer, got \(f.effects)")
                return
            }
            f.effects.removeAll(keepingCapacity: true)
            try f.core.handle(.cancel(id, by: customer), at: f.time, into: &f.effects)
            f.effects.removeAll(keepingCapacity: true)
        } catch {
            benchmark.error("\(error)")
        }
    }
}

/// One batch epoch of `batchRequests` requests per iteration.
func batchEpoch(taxis: Int) {
    var fixture: DispatchFixture?
    Benchmark("Batch epoch (\(batchRequests) requests) \(taxis / 1000)k taxis",
              configuration: .init(metrics: Benchmark.defaultConfiguration.metrics + [nsPerRequest],
                                   warmupIterations: 5, maxIterations: 300)) { benchmark in
        do {
            if fixture == nil {
                fixture = try DispatchFixture(policy: BatchAssignmentPolicy(window: 30, candidatesPerRequest: 8),
                                              taxis: taxis, seed: UInt64(taxis))
            }
            let f = fixture!
            let trips = (0..<batchRequests).map { _ in (f.randomPosition(), f.randomPosition()) }
            let first = f.nextRequest
            f.nextRequest += batchRequests
            let clock = ContinuousClock()
            benchmark.startMeasurement()
            let started = clock.now
            for (i, trip) in trips.enumerated() {
                try f.core.handle(.requestRide(RequestID(first + i), customer: CustomerID(i), origin: trip.0,
                                               destination: trip.1, patience: 0), at: f.time, into: &f.effects)
            }
            guard case .wake(let due, let timer) = f.effects.first else { fatalError("no batch epoch timer: \(f.effects)") }
            try f.core.handle(.timerFired(timer), at: due, into: &f.effects)
            let elapsed = started.duration(to: clock.now)
            benchmark.stopMeasurement()
            let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
            benchmark.measurement(nsPerRequest, Int(nanoseconds) / batchRequests)
            let offers = f.effects.count { if case .offer = $0 { true } else { false } }
            guard offers == batchRequests else {
                benchmark.error("expected \(batchRequests) offers, got \(offers)")
                return
            }
            f.time = due
            f.effects.removeAll(keepingCapacity: true)
            for i in 0..<batchRequests {
                try f.core.handle(.cancel(RequestID(first + i), by: CustomerID(i)), at: f.time, into: &f.effects)
            }
            f.effects.removeAll(keepingCapacity: true)
        } catch {
            benchmark.error("\(error)")
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 100,
        maxDuration: .seconds(2),
        maxIterations: 20_000
    )
    for taxis in fleetSizes {
        immediateDecision("ZoneFIFO", taxis: taxis) { ZoneFIFOPolicy() }
        immediateDecision("ZoneFIFO CAT (empty origin zone)", taxis: taxis, emptyZoneShare: 0.1) { ZoneFIFOPolicy() }
        immediateDecision("NearestIdle", taxis: taxis) { NearestIdlePolicy() }
        batchEpoch(taxis: taxis)
    }
}
