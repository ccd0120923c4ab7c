import CacheHint
import DispatchCore
import EventEngine
import Foundation

/// One run of a scenario: a discrete-event model of the city — customers,
/// drivers, shifts, traffic — that drives the real `DispatchCore` through its
/// command API only, as the HTTP service does.
///
/// Invariant: the simulation never touches the core's state except through
/// `DispatchCore.handle`; same scenario, seed and replication give the same
/// event sequence and the same results.
public final class CitySimulation {
    public let scenario: Scenario
    public let seed: UInt64
    let city: CityModel
    let core: DispatchCore
    let horizon: Double
    let warmup: Double
    var events = EventQueue<SimEvent>()
    let streams: RandomStreams
    /// Demand streams (arrivals, places, patience) are drawn per customer only, so grid points of
    /// a sweep that share a seed see the same customers (common random numbers).
    let arrivalsRandom, placesRandom, patienceRandom, reservationsRandom: RandomStream
    /// Model-response streams: drivers' behaviour and taxis' start places.
    let behaviourRandom, fleetRandom: RandomStream
    /// Ride times and drive noise, drawn once per request when it is made (`RideDraw`), so two
    /// configurations sharing a seed see the same rides (common random numbers).
    let ridesRandom: RandomStream
    /// The scenario's settings the per-customer and per-request draws read, taken out once.
    let customerParameters: CustomerDraw.Parameters
    let rideParameters: RideDraw.Parameters
    let demand: DemandProcess
    /// The customers of a trip replay or an OD matrix (nil for the synthetic model), and the next one due.
    let realDemand: RealDemand?
    var nextTrip: DemandTrip?
    /// The planner users' planned taxi legs (nil without a `planner` section).
    let plannerDemand: PlannerDemand?
    /// Per planned taxi leg, in `plannerDemand.legs` order: the request it became, or nil when the core refused it.
    var plannerBookings: [RequestID?] = []
    var drivers = RecordTable<SimDriver>()
    /// Per driver, the leg along the roads in progress (to a pickup, a ride, a drift), or nil: road cities
    /// only (empty on the grid). At most one per driver, dropped when it ends, so memory is bounded by the fleet.
    var legs: [RoadLeg?] = []
    /// Every request by id: its `rides.csv` row, and the draws and exclusions of the open ones.
    var rides = RideTable()
    var hourly: [HourSample] = []
    /// The core's effects, appended command after command: a command's are `effects[mark..<end]` while
    /// they are applied (a command issued meanwhile, such as a shift's end, appends its own after them).
    /// Emptied only between events once long, so a command does not pay for emptying it.
    var effects: [Effect] = []
    /// The answer or pickup scheduled by the effect being applied, for the timer effect after it (`wake`).
    var justScheduledSettler: PendingSettler?
    /// Patience timers of the effects being applied, waiting for the offer that follows them (`apply`).
    var deferredPatience: [(timer: TimerID, at: Double)] = []
    /// The synthetic customers drawn ahead on a second thread (`CustomerFeed`), or nil when the loop draws
    /// each customer as they arrive.
    var customerFeed: CustomerFeed? {
        didSet { customerFeedInLoop = customerFeed.map(Unmanaged.passUnretained) }
    }
    /// `customerFeed`, for the loop to call without a retain and release per customer (perf: ~3 % of the grid
    /// city's loop); `customerFeed` keeps it alive.
    var customerFeedInLoop: Unmanaged<CustomerFeed>?
    /// Whether the run may use helper threads beside its loop: customers drawn ahead (`CustomerFeed`: a grid
    /// city with synthetic demand and no planner users) and the zone queues' records kept aside (`QueueRecordsAside`).
    /// Off, the loop does both itself: the same outputs, one thread (tests compare the two; the bench gate
    /// counts its simulations this way, where instruction and malloc counts must repeat exactly).
    public var usesHelperThreads = true
    /// Whether core timers may wait behind the model's own events (`ParkedTimer`); tests turn it off
    /// to show that parking changes nothing but the number of events.
    var parksTimers = true
    var nextCustomer = 0
    var eventCount = 0
    /// Requests made after the warm-up that the core refused (not in `rides`): D12 (the customer
    /// already has an open immediate request) and D11 (a reservation lead below the minimum).
    var refusedOpenRequest = 0, refusedTooSoon = 0
    /// D9 reassignments of requests made after the warm-up, counted as they happen.
    var madReassignments = 0
    /// The simulator's own record of the zone queues, to check their order (D15) independently of the core
    /// (kept on a helper while the run goes on with helper threads: `queueRecordsAside`).
    var queueOrder = QueueOrderCheck(zones: 0)
    /// The stamps of the joins the loop records (each taxi's place is in its `SimDriver`).
    var queueStamps = QueueStamps()
    /// The drivers' stints in the zone queues, for fairness within each queue (`fairness.by_shift_zone`),
    /// summed as they end; made for the roster's drivers by `setUpFleet`.
    var queueStints = QueueStints(drivers: [], window: (0, 0))
    /// While the run goes on with helper threads, the stints and the order check kept on one (`queueStints`
    /// and `queueOrder` are theirs once `closeBooks` has finished it).
    var queueRecordsAside: QueueRecordsAside?
    /// The notes for `queueRecordsAside` not yet handed to it.
    var queueNotes = QueueRecordsAside.Notes()
    /// While `run(streamingRidesTo:)` goes on, the helper that hands the finished rides to the stream.
    var ridesAside: RidesAside?
    /// The stream `ridesAside` tallies the rides into when the run writes no `rides.csv` (`RideTallyStream`).
    var ridesTally: RideTallyStream?
    /// The loop prefetches the next event's records (`prefetchRecords(of:)`): only for a fleet whose
    /// records outgrow a core's cache, where the loads it starts early would miss (see `prefetchFleetFloor`).
    private(set) var prefetchesAhead = false
    /// The event queue's refills seen by `step` (`prefetchDirectoryEntries`).
    var seenRefills = 0
    /// Room for the requests of a refill's events (`prefetchDirectoryEntries`): only its length is kept.
    var refillRequests: [Int32] = []
    /// Every `ridesHandInterval` events the ended rides are sealed, and handed on once `ridesHandBatch` are
    /// new (tests hand every ride as soon as it ends).
    var ridesHandInterval = 4_096, ridesHandBatch = 4_096
    /// Tests: each hand waits until the stream has taken it (`RidesAside`).
    var handsRidesInLockstep = false
    /// With helper threads, the scenario's `canonicalHash` worked out on one while the loop runs (encoding the
    /// scenario as JSON took 10.7 M instructions after the grid city's loop, 0.8 % of its run).
    private var scenarioHashAside: Aside<String>?
    /// The scenario's `canonicalHash`, for the summary.
    var scenarioHash: String { (try? scenarioHashAside?.value()) ?? scenario.canonicalHash }
    private var ridesHandCountdown = 4_096, ridesHanded = 0
    /// Called every 65,536 events with the simulated time reached (of `horizon`), e.g. to feed a `ProgressMeter`.
    public var progress: ((_ simulatedSeconds: Double, _ horizon: Double) -> Void)?
    /// Set to check the core's invariants after every `invariantCheckInterval`-th event and at the end (slow; tests use it).
    public var checksInvariants = false
    /// How many events pass between invariant checks (1 = after every event).
    public var invariantCheckInterval = 1
    public private(set) var invariantProblems: [String] = []
    /// Set to record the run for the viewer (`citysim run --trace`).
    public var tracer: TraceRecorder?

    /// - Parameters:
    ///   - seed: overrides the scenario's seed.
    ///   - replication: index of the replication; each has its own random streams.
    /// - Throws: a `DispatchError` when the scenario's city or rules are rejected by the core.
    public init(scenario: Scenario, seed: UInt64? = nil, replication: Int = 0) throws {
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        city = try CityModel(scenario: scenario)
        core = try scenario.makeDispatchCore(city: city)
        horizon = scenario.durationHours * 3600
        warmup = scenario.warmupHours * 3600
        streams = RandomStreams(seed: self.seed, replication: replication)
        arrivalsRandom = streams.arrivals
        placesRandom = streams.places
        behaviourRandom = streams.driverBehaviour
        ridesRandom = streams.rideTimes
        patienceRandom = streams.patience
        reservationsRandom = streams.reservations
        queueOrder = QueueOrderCheck(zones: city.geometry.zoneCount)
        fleetRandom = streams.stream(named: "fleet")
        customerParameters = CustomerDraw.Parameters(scenario)
        rideParameters = RideDraw.Parameters(scenario)
        demand = DemandProcess(ratePerHour: (0..<24).map(scenario.demand.rate(atHour:)))
        realDemand = try RealDemand(scenario: scenario, city: city, streams: streams, horizon: horizon)
        if let planner = scenario.planner {
            plannerDemand = try PlannerDemand.generate(planner, scenario: scenario, city: city,
                                                       random: streams.stream(named: PlannerDemand.streamName))
        } else {
            plannerDemand = nil
        }
    }

    /// Runs the scenario to its horizon and returns what was measured.
    ///
    /// - Parameters:
    ///   - streamingRidesTo: takes the ride rows on a helper thread while the run goes on, each row once it
    ///     can no longer change (for example `ResultWriter.RidesCSVFile`, writing `rides.csv`); the last ones
    ///     while the summary is computed and `then` runs. Its errors are thrown after `then`'s.
    ///   - then: given the result on this thread as soon as it is measured, while the stream may still take
    ///     the last rows (for example writing the other files); its error is thrown.
    public func run(streamingRidesTo stream: RideRowsStream? = nil, then: ((RunResult) throws -> Void)? = nil) throws -> RunResult {
        let started = Date()
        defer {  // a run that throws leaves no helper waiting (a finished one has let them go already)
            customerFeed?.stop()
            queueRecordsAside?.stop()
            ridesAside?.stop()
            try? ridesAside?.wait()
        }
        if let stream {
            try stream.start(roads: city.roads?.graph)
            ridesAside = RidesAside(stream, lockstep: handsRidesInLockstep)
            ridesHandCountdown = ridesHandInterval
        } else if usesHelperThreads {
            // No rides.csv: the rides helper tallies the summary's figures of the rides as they end instead.
            let tally = RideTallyStream(hours: Int(scenario.durationHours.rounded(.up)), zones: city.geometry.zoneCount,
                                        warmup: warmup, expected: requestRoom)
            ridesTally = tally
            ridesAside = RidesAside(tally, lockstep: handsRidesInLockstep)
            ridesHandCountdown = ridesHandInterval
        }
        try begin()
        while try step() {}
        if checksInvariants { invariantProblems += core.invariantViolations().map { "at the end: \($0)" } }
        closeBooks()
        rides.records.sealAll()
        let wall = Date().timeIntervalSince(started)
        ridesAside?.finish(rides.records.sealedRecords())
        let measured = Result { () throws -> RunResult in
            let result = RunResult(simulation: self, wallSeconds: wall)
            try then?(result)
            return result
        }
        let streamed = Result { try ridesAside?.wait() }
        let result = try measured.get()  // the run's own error first, once the stream is done
        try streamed.get()
        return result
    }

    deinit {
        customerFeed?.stop()
        queueRecordsAside?.stop()
        ridesAside?.stop()
    }

    /// Storage sized from the scenario (expected arrivals plus 4 standard deviations of their Poisson
    /// count, plus planner legs), so the requests' records are not copied while they grow.
    var requestRoom: Int {
        let expected = realDemand?.expectedCount ?? demand.expectedArrivals(horizon: horizon)
        return Int(expected + 4 * expected.squareRoot()) + 16 + (plannerDemand?.legs.count ?? 0)
    }

    /// The first part of `run`: the fleet's shifts, the first customers and the hourly samples scheduled.
    func begin() throws {
        let requests = requestRoom
        rides.reserveCapacity(requests)
        if usesHelperThreads {
            rides.records.prefaultChunksAhead()
            let scenario = self.scenario
            scenarioHashAside = Aside { scenario.canonicalHash }
        }
        // Customers are numbered from 0 (in arrival order, or drawn from the population): D12's table files
        // them in an array, up to four per expected request (a larger population's other ids stay hashed).
        let population = scenario.demand.customers
        core.reserveCapacity(drivers: scenario.fleet.totalTaxis, requests: requests,
                             customers: population > 0 ? min(population, 4 * requests) : requests)
        if usesHelperThreads { PagePopulation.populateAhead(core.unusedReservedStorage()) }
        try setUpFleet()
        prefetchesAhead = drivers.count >= Self.prefetchFleetFloor
        if let realDemand {
            nextTrip = realDemand.next(after: 0, arrivals: arrivalsRandom, places: placesRandom)
            if let nextTrip { schedule(.tracedArrival, at: nextTrip.time, arrival: true) }
        } else if let first = demand.nextArrival(after: 0, horizon: horizon, arrivalsRandom) {
            schedule(.arrival, at: first, arrival: true)
            customerFeed = try makeCustomerFeed(firstArrival: first)
        }
        if let first = plannerDemand?.legs.first { schedule(.plannerLeg, at: first.bookAt) }
        schedule(.hourTick(hour: 0), at: 0, priority: 1)
    }

    /// Handles the next event (tests step a run with it); false when none is left before the horizon.
    func step() throws -> Bool {
        guard let (time, event) = events.popNext(), time < horizon else { return false }
        eventCount += 1
        if prefetchesAhead {
            if events.refills != seenRefills { prefetchDirectoryEntries() }
            if let next = events.heapFirstPayload { prefetchRecords(of: next) }
        }
        if effects.count >= 4096 { effects.removeAll(keepingCapacity: true) }  // no command is applying them now
        try handle(event)
        if checksInvariants, eventCount % invariantCheckInterval == 0 {
            let problems = core.invariantViolations()
            if !problems.isEmpty { invariantProblems += problems.map { "t=\(time): \($0)" } }
        }
        if let progress, eventCount & 0xFFFF == 0 { progress(time, horizon) }
        if let ridesAside {
            ridesHandCountdown -= 1
            if ridesHandCountdown <= 0 { handSealedRides(to: ridesAside) }
        }
        return true
    }

    /// Seals the rides that have ended since the last time and hands them to the stream once there are
    /// `ridesHandBatch` more (`RidesAside`).
    private func handSealedRides(to aside: RidesAside) {
        ridesHandCountdown = ridesHandInterval
        let sealed = rides.records.sealEnded()
        guard sealed - ridesHanded >= ridesHandBatch else { return }
        ridesHanded = sealed
        aside.hand(rides.records.sealedRecords())
    }

    // MARK: - Scheduling

    /// `arrival: true` for the next customer of the arrival process, which has one pending at a time: it
    /// waits in the queue's stream (`EventQueue.scheduleInStream`), in the same order.
    func schedule(_ event: SimEvent, at time: Double, priority: Int = 0, arrival: Bool = false) {
        guard time < horizon else { return }
        do {
            if arrival {
                try events.scheduleInStream(event, at: max(time, events.now), priority: priority)
            } else {
                try events.schedule(event, at: max(time, events.now), priority: priority)
            }
        } catch {
            preconditionFailure("the simulator scheduled an invalid time: \(error)")
        }
    }

    /// Hands a command to the core and applies its effects. Refusals the
    /// model expects (a customer cancelling too late) come back as false.
    @discardableResult @inline(__always)
    func command(_ command: Command) -> Bool { attempt(command) == nil }

    /// Hands a command to the core and applies its effects; the core's reason when it refuses.
    /// Inlined where the model names its command, so the core's `handle` (inlinable) calls that command's
    /// method directly there.
    @inline(__always)
    func attempt(_ command: Command) -> DispatchError? {
        let mark = effects.count
        do throws(DispatchError) {
            try core.handle(command, at: events.now, into: &effects)  // leaves `effects` as it was when it throws
        } catch {
            return error
        }
        let end = effects.count
        if tracer != nil { trace(command, mark..<end) }
        apply(mark..<end, of: command)
        return nil
    }

    @inline(never)
    private func trace(_ command: Command, _ range: Range<Int>) {
        tracer?.record(command, effects: Array(effects[range]), at: events.now, core: core)
    }

    /// Like `command`, for commands the model only issues when they must succeed.
    @inline(__always)
    func mustCommand(_ command: Command) {
        if let refusal = attempt(command) { refused(command, refusal) }
    }

    @inline(never)
    private func refused(_ command: Command, _ refusal: DispatchError) -> Never {
        preconditionFailure("the dispatch core refused \(command) at \(events.now): \(refusal)")
    }
}

/// Hourly sample of the fleet.
struct HourSample {
    var taxisOnShift = 0
    var taxisAvailable = 0
    var queueLengthByZone: [Int32] = []
}
