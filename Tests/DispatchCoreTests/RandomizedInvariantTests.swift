import TestSupport
import Testing
@testable import DispatchCore

/// One configuration of the randomized test: a policy and the D4/D5 options.
struct ChaosConfiguration: Sendable, CustomTestStringConvertible {
    let policy: String
    let onTimeout: TimeoutBehaviour
    let onDecline: DeclineBehaviour
    var testDescription: String { "\(policy), timeout \(onTimeout), decline \(onDecline)" }

    static let all: [ChaosConfiguration] = DispatchPolicies.names.flatMap { policy in
        TimeoutBehaviour.allCases.flatMap { timeout in
            DeclineBehaviour.allCases.map { ChaosConfiguration(policy: policy, onTimeout: timeout, onDecline: $0) }
        }
    }
}

/// Drives a core with a seeded stream of valid and invalid commands in
/// non-decreasing time, firing the timers it asked for in time order (and
/// now and then a stale one again). Also drives `SnapshotTests`.
struct ChaosDriver {
    let core: DispatchCore
    var rng: SplitMix64
    var time = 0.0
    var pending: [(at: Double, timer: TimerID)] = []
    var fired: [TimerID] = []
    var drivers = 0
    var requests = 0
    var customerOf: [Int: Int] = [:]

    init(core: DispatchCore, seed: UInt64) {
        self.core = core
        rng = SplitMix64(seed: seed)
    }

    mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
    mutating func pick(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    mutating func position() -> Position {
        let w = core.city.width, h = core.city.height
        switch pick(0...99) {
        case 0, 1: return point(chance(50) ? w : 0, Double.random(in: 0...h, using: &rng))
        case 2, 3: return point(Double.random(in: -500...(w + 500), using: &rng), chance(50) ? -1 : h + 1)
        case 4: return point(.nan, 10)
        case 5: return point(10, chance(50) ? .infinity : -.infinity)
        default: return point(Double.random(in: 0...w, using: &rng), Double.random(in: 0...h, using: &rng))
        }
    }

    mutating func driver() -> DriverID { DriverID(chance(5) || drivers == 0 ? 1000 + pick(0...3) : pick(1...drivers)) }
    mutating func request() -> RequestID { RequestID(chance(5) || requests == 0 ? 5000 + pick(0...3) : pick(1...requests)) }

    /// A driver in the given state and their request, if any.
    mutating func engaged(_ state: (DriverStatus) -> RequestID?) -> (DriverID, RequestID)? {
        let candidates = core.drivers.elements.compactMap { record in state(record.status).map { (record.id, $0) } }
        return candidates.isEmpty ? nil : candidates[pick(0...(candidates.count - 1))]
    }

    /// The next command and its time.
    mutating func next() -> (Command, Double) {
        let roll = pick(0...99)
        if roll < 22, let earliest = pending.indices.min(by: { pending[$0].at < pending[$1].at }) {
            let (at, timer) = pending.remove(at: earliest)
            fired.append(timer)
            time = max(time, at)
            return (.timerFired(timer), time)
        }
        if roll < 24, !fired.isEmpty { return (.timerFired(fired[pick(0...(fired.count - 1))]), time) }
        if roll == 24 { return (.queueStatus(position()), chance(50) ? time - Double(pick(1...100)) : .nan) }
        if chance(50) { time += Double.random(in: 0...10, using: &rng) }
        return (command(), time)
    }

    private mutating func command() -> Command {
        switch pick(0...99) {
        case 0..<5:
            if drivers < 25 || chance(10) { drivers += 1; return .addDriver(DriverID(drivers), taxiCode: "T\(drivers)") }
            return .addDriver(driver(), taxiCode: "dup")
        case 5..<11: return .startShift(driver(), at: position())
        case 11..<13: return .endShift(driver())
        case 13..<25: return .setAvailable(driver(), chance(75))
        case 25..<35: return .updatePosition(driver(), position())
        case 35..<48:
            let customer = pick(1...25)
            let patience = [0, 0, 30, 120, 600, .infinity, -5][pick(0...6)]
            if chance(5), requests > 0 { return .requestRide(request(), customer: CustomerID(customer), origin: position(),
                                                             destination: position(), patience: patience) }
            requests += 1
            customerOf[requests] = customer
            return .requestRide(RequestID(requests), customer: CustomerID(customer), origin: position(),
                                destination: position(), patience: patience)
        case 48..<51:
            requests += 1
            customerOf[requests] = pick(1...25)
            return .reserveRide(RequestID(requests), customer: CustomerID(customerOf[requests]!), origin: position(),
                                destination: position(), meetingTime: time + Double(pick(6000...12000)))
        case 51..<56:
            let id = request()
            return .cancel(id, by: CustomerID(chance(80) ? customerOf[id.rawValue] ?? 1 : pick(1...25)))
        case 56..<70:
            if !chance(15), let (d, r) = engaged({ if case .offered(let r) = $0 { r } else { nil } }) {
                return chance(70) ? .accept(d, r) : .decline(d, r)
            }
            return chance(50) ? .accept(driver(), request()) : .decline(driver(), request())
        case 70..<78:
            if !chance(15), let (d, r) = engaged({ if case .toPickup(let r) = $0 { r } else { nil } }) { return .pickedUp(d, r) }
            return .pickedUp(driver(), request())
        case 78..<88:
            if !chance(15), let (d, r) = engaged({ if case .onRide(let r) = $0 { r } else { nil } }) {
                return .droppedOff(d, r, at: position())
            }
            return .droppedOff(driver(), request(), at: position())
        case 88..<92:
            let id = request()
            return .report(chance(50) ? .driver(driver()) : .customer(CustomerID(customerOf[id.rawValue] ?? 1)), id)
        case 92..<96: return chance(50) ? .queueStatus(position()) : .estimateArrival(position())
        default: return .timerFired(TimerID(kind: .offerTimeout, request: request(), generation: UInt32(pick(0...3))))
        }
    }

    mutating func record(_ effects: [Effect]) {
        for case .wake(let at, let timer) in effects { pending.append((at, timer)) }
    }
}

@Test(.timeLimit(.minutes(10)), arguments: ChaosConfiguration.all)
func randomCommandSequencesKeepEveryInvariantAndRefusalsChangeNothing(configuration: ChaosConfiguration) throws {
    var dispatchRules = DispatchRules()
    dispatchRules.onTimeout = configuration.onTimeout
    dispatchRules.onDecline = configuration.onDecline
    var accepted = 0, refused = 0, completed = 0
    for seed in UInt64(1)...20 {
        let city = try CityGeometry(width: 6000, height: 4000, zoneSide: 1000)   // whole squares covering the city
        let core = try DispatchCore(city: city, travel: GridTravelModel(speed: 8),
                                    policy: DispatchPolicies.make(name: configuration.policy, batchWindow: 20),
                                    rules: dispatchRules)
        var chaos = ChaosDriver(core: core, seed: seed)
        for step in 0..<2000 {
            let (command, time) = chaos.next()
            let before = Snapshot(of: core)
            do {
                let effects = try core.handle(command, at: time)
                chaos.record(effects)
                accepted += 1
                completed += effects.filter { if case .rideCompleted = $0 { true } else { false } }.count
            } catch {
                refused += 1
                guard Snapshot(of: core) == before else {
                    Issue.record("seed \(seed) step \(step): refused \(command) (\(error)) changed the core")
                    return
                }
            }
            let problems = core.invariantViolations()
            guard problems.isEmpty else {
                Issue.record("seed \(seed) step \(step) after \(command) at \(time): \(problems)")
                return
            }
        }
    }
    // The stream must really exercise the core, not just bounce off it.
    #expect(accepted > 15_000 && refused > 4_000 && completed > 100, "accepted \(accepted), refused \(refused), completed \(completed)")
}

/// `timerCanAct` lets a host drop a timer instead of firing it (the simulator parks its
/// timers on that promise): once false for a timer it stays false, and firing the timer
/// then changes nothing, whatever commands come in between.
@Test(.timeLimit(.minutes(10)), arguments: ChaosConfiguration.all.filter { $0.onDecline == .requeue })
func aTimerThatCannotActNeverActsAgain(configuration: ChaosConfiguration) throws {
    var dispatchRules = DispatchRules()
    dispatchRules.onTimeout = configuration.onTimeout
    dispatchRules.onDecline = configuration.onDecline
    var checked = 0, live = 0
    for seed in UInt64(1)...6 {
        let city = try CityGeometry(width: 6000, height: 4000, zoneSide: 1000)
        let core = try DispatchCore(city: city, travel: GridTravelModel(speed: 8),
                                    policy: DispatchPolicies.make(name: configuration.policy, batchWindow: 20),
                                    rules: dispatchRules)
        var chaos = ChaosDriver(core: core, seed: seed)
        var cannotAct = Set<TimerID>()
        for step in 0..<1500 {
            let (command, time) = chaos.next()
            if let effects = try? core.handle(command, at: time) { chaos.record(effects) }
            for timer in chaos.pending.map(\.timer) + chaos.fired where !cannotAct.contains(timer) {
                if core.timerCanAct(timer) { live += 1 } else { cannotAct.insert(timer) }
            }
            guard step % 25 == 0 else { continue }
            for timer in cannotAct {
                checked += 1
                guard !core.timerCanAct(timer) else {
                    Issue.record("seed \(seed) step \(step): \(timer) could act again after \(command)")
                    return
                }
                let before = Snapshot(of: core)
                let effects = try? core.handle(.timerFired(timer), at: core.now)
                guard effects?.isEmpty ?? true, Snapshot(of: core) == before else {
                    Issue.record("seed \(seed) step \(step): \(timer) said it could not act, then did: \(effects ?? [])")
                    return
                }
            }
        }
    }
    #expect(checked > 5_000 && live > 1_000, "checked \(checked), live \(live)")
}
