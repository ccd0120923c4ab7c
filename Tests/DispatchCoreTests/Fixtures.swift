import Testing
@testable import DispatchCore

/// A position in metres from the south-west corner.
func point(_ x: Double, _ y: Double) -> Position { Position(x: x, y: y) }

/// Rules with the D4/D5/D11/D13 options a test needs; every other field keeps its default.
func rules(onTimeout: TimeoutBehaviour = .requeue, onDecline: DeclineBehaviour = .unavailable,
           cancelCutoff: Double = 600, chargeAt: FareCharging = .dropoff) -> DispatchRules {
    var rules = DispatchRules()
    rules.onTimeout = onTimeout
    rules.onDecline = onDecline
    rules.reservationCancelCutoff = cancelCutoff
    rules.fare.chargeAt = chargeAt
    return rules
}

/// A small city for one test: 8 km × 8 km in 4 × 4 zones of 2 km side (zone
/// `row * 4 + column`), taxis driving 10 m/s at every hour, Manhattan distances unless told.
/// Every command goes through `send`, which checks the invariants afterwards.
///
/// ```swift
/// let f = try Fixture()
/// try f.addDrivers(at: [point(100, 100), point(200, 100)])   // drivers 1, 2 in zone 0
/// let effects = try f.request(1, from: point(500, 500))
/// ```
final class Fixture {
    let core: DispatchCore
    /// The time of the next command unless a command names its own.
    var time: Double = 0

    init(policy: any DispatchPolicy = ZoneFIFOPolicy(), rules: DispatchRules = DispatchRules(),
         metric: DistanceMetric = .manhattan, width: Double = 8000, height: Double = 8000,
         zoneSide: Double = 2000, speedByHour: [Double] = Array(repeating: 10, count: 24), city: CityGeometry? = nil) throws {
        let city = try city ?? CityGeometry(width: width, height: height, zoneSide: zoneSide)
        core = try DispatchCore(city: city, travel: GridTravelModel(metric: metric, detourFactor: 1, speedByHour: speedByHour),
                                policy: policy, rules: rules)
    }

    /// Handles a command at `time` (default: the fixture's time, which then moves to it).
    @discardableResult
    func send(_ command: Command, at time: Double? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws(DispatchError) -> [Effect] {
        let at = time ?? self.time
        let effects = try core.handle(command, at: at)
        self.time = at
        let problems = core.invariantViolations()
        #expect(problems.isEmpty, "\(command): \(problems)", sourceLocation: sourceLocation)
        return effects
    }

    /// Registers driver `id` (taxi code "T<id>"), starts their shift at `position`
    /// and, unless told otherwise, turns them available.
    @discardableResult
    func addDriver(_ id: Int, at position: Position, available: Bool = true) throws -> [Effect] {
        try send(.addDriver(DriverID(id), taxiCode: "T\(id)"))
        try send(.startShift(DriverID(id), at: position))
        return available ? try send(.setAvailable(DriverID(id), true)) : []
    }

    /// Drivers 1, 2, … at the positions, turned available in that order.
    func addDrivers(at positions: [Position]) throws {
        let first = core.drivers.count + 1
        for (offset, position) in positions.enumerated() { try addDriver(first + offset, at: position) }
    }

    /// An immediate request `id` of customer `customer` (default: same number as the request).
    @discardableResult
    func request(_ id: Int, customer: Int? = nil, from origin: Position, to destination: Position = point(7000, 7000),
                 patience: Double = 0, at time: Double? = nil) throws -> [Effect] {
        try send(.requestRide(RequestID(id), customer: CustomerID(customer ?? id), origin: origin,
                              destination: destination, patience: patience), at: time)
    }

    /// Fires the timer of `kind` asked for in `effects`, at its time.
    @discardableResult
    func fire(_ kind: TimerID.Kind, from effects: [Effect],
              sourceLocation: SourceLocation = #_sourceLocation) throws -> [Effect] {
        guard let (at, timer) = effects.wake(kind) else {
            Issue.record("no \(kind) timer in \(effects)", sourceLocation: sourceLocation)
            return []
        }
        return try send(.timerFired(timer), at: at, sourceLocation: sourceLocation)
    }

    /// The queue of the zone numbered `zone`.
    func queue(_ zone: Int) -> [DriverID] { core.queue(of: ZoneID(zone)) }

    func status(_ driver: Int) -> DriverStatus? { core.status(of: DriverID(driver)) }
    func status(request: Int) -> RequestStatus? { core.status(of: RequestID(request)) }

    func snapshot() -> Snapshot { Snapshot(of: core) }

    /// Checks that `command` is refused with an error `matches` accepts (for errors carrying NaN,
    /// which compare unequal) and leaves the core exactly as it was.
    func expectRefused(_ command: Command, at time: Double? = nil, where matches: (DispatchError) -> Bool,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let before = snapshot()
        do {
            _ = try core.handle(command, at: time ?? self.time)
            Issue.record("\(command) was accepted", sourceLocation: sourceLocation)
        } catch {
            #expect(matches(error), "\(command): wrong error \(error)", sourceLocation: sourceLocation)
        }
        #expect(snapshot() == before, "\(command) changed the core", sourceLocation: sourceLocation)
        #expect(core.invariantViolations().isEmpty, sourceLocation: sourceLocation)
    }

    /// Checks that `command` is refused with `error` and leaves the core exactly as it was.
    func expectRefused(_ command: Command, at time: Double? = nil, with error: DispatchError,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let before = snapshot()
        #expect(throws: error, sourceLocation: sourceLocation) { try self.core.handle(command, at: time ?? self.time) }
        #expect(snapshot() == before, "\(command) changed the core", sourceLocation: sourceLocation)
        #expect(core.invariantViolations().isEmpty, sourceLocation: sourceLocation)
    }
}

/// Everything a core holds, to show a refused command changed nothing: the core's whole state
/// (`DispatchCore.Snapshot`, which `SnapshotTests` pins to every stored property: records, waiting
/// lists, D12/D13 tables, queue stamps, the spatial index, the batch window), the city and the public
/// view of the queues.
struct Snapshot: Equatable {
    var state: DispatchCore.Snapshot
    var city: CityGeometry
    var publicQueues: [[DriverID]]

    init(of core: DispatchCore) {
        state = core.snapshot
        city = core.city
        publicQueues = (0..<core.city.zoneCount).map { core.queue(of: ZoneID($0)) }
    }
}

/// Sends `chaos`'s next `steps` commands to both `reference` (whose effects `chaos` follows) and `other`,
/// running `before` ahead of each; records an issue and stops at the first command that `other` answers
/// differently, or after which any field of the two differs.
func expectSameAnswers(from other: DispatchCore, as reference: DispatchCore, chaos: inout ChaosDriver, steps: Int,
                       label: String, before: (inout ChaosDriver) -> Void = { _ in },
                       sourceLocation: SourceLocation = #_sourceLocation) {
    for step in 0..<steps {
        let (command, time) = chaos.next()
        before(&chaos)
        let expected = Result { try reference.handle(command, at: time) }
        let answered = Result { try other.handle(command, at: time) }
        if case .success(let effects) = expected { chaos.record(effects) }
        guard "\(expected)" == "\(answered)", Snapshot(of: other) == Snapshot(of: reference) else {
            Issue.record("\(label) step \(step): \(command) answered \(answered), the reference \(expected)",
                         sourceLocation: sourceLocation)
            return
        }
    }
}

extension Array where Element == Effect {
    /// The (driver, request, expiry) of every offer, in order.
    var offers: [(driver: DriverID, request: RequestID, expiresAt: Double)] {
        compactMap { if case .offer(let d, let r, let t) = $0 { (d, r, t) } else { nil } }
    }

    /// The first wake-up of `kind`.
    func wake(_ kind: TimerID.Kind) -> (at: Double, timer: TimerID)? {
        for effect in self { if case .wake(let at, let timer) = effect, timer.kind == kind { return (at, timer) } }
        return nil
    }
}


