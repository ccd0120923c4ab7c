// The gate's fixed workloads: a set number of operations each, never a time-bounded loop,
// so the same binary does the same work on every machine and callgrind counts the same
// instructions and mallocs. They mirror the ordo-one suites (same fixtures and seeds).

import BenchFixtures
import CitySim
import DispatchCore

/// One fixed workload: its command-line key, the name shown in the gate's table, the number
/// of operations it measures (the table divides by it) and the code that runs it.
///
/// Invariant: `run` performs exactly `operations` measured operations through the
/// `citysim_gate_measured_*` functions, after an unmeasured warm-up, and throws if any
/// operation did not have its expected effect.
struct GateWorkload: Sendable {
    let key: String
    let name: String
    let operations: Int
    let unit: String
    let run: @Sendable () throws -> Void
}

/// A workload's result was not what the suites check for.
struct WorkloadFailure: Error, CustomStringConvertible {
    let description: String
}

/// Warm-up operations before measuring: one-time costs (type metadata, conformance caches,
/// first growth of the effect buffer) stay out of the figures.
let warmupDecisions = 20

/// `count` immediate decisions (`.requestRide` → `.offer`), each cancelled unmeasured so the
/// fleet is the same for every decision.
func immediateDecisions(_ fixture: DispatchFixture, count: Int) throws {
    let customer = CustomerID(1)
    for i in 0..<(warmupDecisions + count) {
        let origin = try fixture.randomOrigin(), destination = fixture.randomPosition()
        let id = RequestID(fixture.nextRequest)
        fixture.nextRequest += 1
        let command = Command.requestRide(id, customer: customer, origin: origin, destination: destination, patience: 0)
        if i < warmupDecisions {
            try fixture.core.handle(command, at: fixture.time, into: &fixture.effects)
        } else {
            try measuredCommand(fixture.core, command, at: fixture.time, into: &fixture.effects)
        }
        guard case .offer = fixture.effects.first else {
            throw WorkloadFailure(description: "decision \(i): expected an offer, got \(fixture.effects)")
        }
        fixture.effects.removeAll(keepingCapacity: true)
        try fixture.core.handle(.cancel(id, by: customer), at: fixture.time, into: &fixture.effects)
        fixture.effects.removeAll(keepingCapacity: true)
    }
}

/// `count` batch epochs of `requests` requests: the requests and the epoch's `.timerFired` are
/// measured (51 commands), the cancels are not.
func batchEpochs(_ fixture: DispatchFixture, requests: Int, count: Int, warmup: Int = 2) throws {
    for epoch in 0..<(warmup + count) {
        let handle: (Command, Double) throws -> Void = { command, time in
            if epoch < warmup {
                try fixture.core.handle(command, at: time, into: &fixture.effects)
            } else {
                try measuredCommand(fixture.core, command, at: time, into: &fixture.effects)
            }
        }
        let trips = (0..<requests).map { _ in (fixture.randomPosition(), fixture.randomPosition()) }
        let first = fixture.nextRequest
        fixture.nextRequest += requests
        for (i, trip) in trips.enumerated() {
            try handle(.requestRide(RequestID(first + i), customer: CustomerID(i), origin: trip.0,
                                    destination: trip.1, patience: 0), fixture.time)
        }
        guard case .wake(let due, let timer) = fixture.effects.first else {
            throw WorkloadFailure(description: "epoch \(epoch): no batch epoch timer: \(fixture.effects)")
        }
        try handle(.timerFired(timer), due)
        let offers = fixture.effects.count { if case .offer = $0 { true } else { false } }
        guard offers == requests else {
            throw WorkloadFailure(description: "epoch \(epoch): expected \(requests) offers, got \(offers)")
        }
        fixture.time = due
        fixture.effects.removeAll(keepingCapacity: true)
        for i in 0..<requests {
            try fixture.core.handle(.cancel(RequestID(first + i), by: CustomerID(i)), at: fixture.time,
                                    into: &fixture.effects)
        }
        fixture.effects.removeAll(keepingCapacity: true)
    }
}

/// `count` × 1,000 pop + schedule pairs of the hold model at `pending` events.
func hold(pending: Int, thousands count: Int) throws {
    let state = try HoldState(pending: pending)
    for _ in 0..<count { try measuredHold(state, pairs: 1_000) }
    guard state.queue.count == pending else {
        throw WorkloadFailure(description: "hold: \(state.queue.count) pending, expected \(pending)")
    }
}

/// `count` whole runs of Scenarios/smoke.yaml with `overrides`, after one unmeasured run.
func simulations(overrides: [String], count: Int) throws {
    let scenario = try Scenario.load(path: smokeScenarioPath, overrides: overrides)
    withExtendedLifetime(try singleThreadedSimulation(scenario)) {}
    for _ in 0..<count {
        withExtendedLifetime(try measuredSimulation(scenario)) {}
    }
}

/// Every workload of the gate, in the order of the table.
let gateWorkloads: [GateWorkload] = [
    GateWorkload(key: "zonefifo-10k", name: "ZoneFIFO decision, 10k taxis", operations: 2_000, unit: "decision") {
        try immediateDecisions(DispatchFixture(policy: ZoneFIFOPolicy(), taxis: 10_000, seed: 10_000), count: 2_000)
    },
    GateWorkload(key: "zonefifo-cat-10k", name: "ZoneFIFO CAT (empty origin zone), 10k taxis", operations: 2_000,
                 unit: "decision") {
        try immediateDecisions(DispatchFixture(policy: ZoneFIFOPolicy(), taxis: 10_000, seed: 10_000,
                                               emptyZoneShare: 0.1), count: 2_000)
    },
    GateWorkload(key: "zonefifo-cat-50k", name: "ZoneFIFO CAT (empty origin zone), 50k taxis", operations: 1_000,
                 unit: "decision") {
        try immediateDecisions(DispatchFixture(policy: ZoneFIFOPolicy(), taxis: 50_000, seed: 50_000,
                                               emptyZoneShare: 0.1), count: 1_000)
    },
    GateWorkload(key: "nearest-idle-10k", name: "NearestIdle decision, 10k taxis", operations: 2_000, unit: "decision") {
        try immediateDecisions(DispatchFixture(policy: NearestIdlePolicy(), taxis: 10_000, seed: 10_000), count: 2_000)
    },
    GateWorkload(key: "batch-1k", name: "Batch epoch (50 requests), 1k taxis", operations: 20, unit: "epoch") {
        try batchEpochs(DispatchFixture(policy: BatchAssignmentPolicy(window: 30, candidatesPerRequest: 8),
                                        taxis: 1_000, seed: 1_000), requests: 50, count: 20)
    },
    GateWorkload(key: "batch-50k", name: "Batch epoch (50 requests), 50k taxis", operations: 5, unit: "epoch") {
        try batchEpochs(DispatchFixture(policy: BatchAssignmentPolicy(window: 30, candidatesPerRequest: 8),
                                        taxis: 50_000, seed: 50_000), requests: 50, count: 5)
    },
    GateWorkload(key: "hold-100k", name: "EventQueue hold, 100000 pending", operations: 100_000, unit: "pair") {
        try hold(pending: 100_000, thousands: 100)
    },
    GateWorkload(key: "smoke", name: "smoke.yaml run", operations: 1, unit: "run") {
        try simulations(overrides: [], count: 1)
    },
    GateWorkload(key: "smoke-reservations", name: "smoke.yaml reservation-heavy (share 0.8, 4 h)", operations: 1,
                 unit: "run") {
        try simulations(overrides: reservationHeavyOverrides, count: 1)
    },
]
