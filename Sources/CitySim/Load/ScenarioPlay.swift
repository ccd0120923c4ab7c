import DispatchCore

/// A customer of the scenario as the load generator plays it against a live service.
///
/// Invariant: times are simulated seconds since the scenario's start; `meetingTime`
/// is set exactly for reservations; `cancelAt`, when set, is when the customer cancels.
public struct PlannedRequest: Sendable, Equatable {
    public var time: Double
    public var origin: Position
    public var destination: Position
    /// The scenario's customer index (`demand.customers` > 0), or -1 for a new customer each time.
    public var customer: Int
    public var meetingTime: Double?
    public var patience: Double
    public var cancelAt: Double?
}

/// What `citysim load` plays against a live service: the scenario's customers in
/// arrival order and its fleet with shifts and start places, drawn by the same
/// demand process, customer draws and shift model as `CitySimulation` (same
/// seed, same customers), plus the travel model for drive times.
///
/// Invariant: `requests` are sorted by time and lie within `[0, horizon)`;
/// `startPositions.count == roster.count`, each inside the city.
///
/// ```swift
/// let play = try ScenarioPlay(scenario: try Scenario.load(path: "Scenarios/smoke.yaml"), hours: 0.5)
/// for request in play.requests { … }   // POST /v1/rides at request.time / speed
/// ```
public struct ScenarioPlay: Sendable {
    public let scenario: Scenario
    public let seed: UInt64
    public let horizon: Double
    public let requests: [PlannedRequest]
    public let roster: [RosterEntry]
    public let startPositions: [Position]
    public let travel: CityTravel
    public let cityWidth: Double
    public let cityHeight: Double

    /// - Parameters:
    ///   - hours: how much of the scenario to play (default: its whole duration).
    /// - Throws: the scenario's city errors.
    public init(scenario: Scenario, seed: UInt64? = nil, hours: Double? = nil) throws {
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        horizon = min(hours ?? scenario.durationHours, scenario.durationHours) * 3600
        let city = try CityModel(scenario: scenario)
        let streams = RandomStreams(seed: self.seed)
        let arrivals = streams.arrivals, places = streams.places, patience = streams.patience
        let parameters = CustomerDraw.Parameters(scenario)
        let demand = DemandProcess(ratePerHour: (0..<24).map(scenario.demand.rate(atHour:)))
        let cutoff = scenario.dispatch.reservationCancelCutoffSeconds
        var requests: [PlannedRequest] = []
        var time = 0.0
        func plan(_ draw: CustomerDraw) {
            requests.append(PlannedRequest(time: time, origin: draw.origin, destination: draw.destination,
                                           customer: draw.drawnCustomer, meetingTime: draw.meetingTime,
                                           patience: draw.patience,
                                           cancelAt: draw.cancelTime(requestedAt: time, cutoffSeconds: cutoff)))
        }
        if let real = try RealDemand(scenario: scenario, city: city, streams: streams, horizon: horizon) {
            // Replayed or OD-matrix customers, drawn as the simulator draws them.
            while let trip = real.next(after: time, arrivals: arrivals, places: places) {
                time = trip.time
                plan(CustomerDraw(at: time, origin: trip.origin, destination: trip.destination, parameters,
                                  arrivals: arrivals, reservations: streams.reservations, patienceRandom: patience))
            }
        } else {
            while let next = demand.nextArrival(after: time, horizon: horizon, arrivals) {
                time = next
                plan(try CustomerDraw(at: time, parameters, city: city, arrivals: arrivals, places: places,
                                      reservations: streams.reservations, patienceRandom: patience))
            }
        }
        self.requests = requests
        roster = scenario.roster(horizon: horizon)
        let fleet = streams.stream(named: "fleet")
        startPositions = roster.map { _ in city.drawStart(fleet, nearHotspots: scenario.fleet.startPositions == .hotspots) }
        travel = city.travel
        cityWidth = city.geometry.width
        cityHeight = city.geometry.height
    }

    /// The estimated drive time, seconds, as the simulator's drivers see it.
    public func travelTime(from origin: Position, to destination: Position, at time: Double) -> Double {
        travel.travelTime(from: origin, to: destination, departingAt: time)
    }

    /// A driver's own behaviour stream (answer delays, accept or decline, drive-time noise);
    /// one per driver so concurrent drivers stay reproducible per driver.
    public func behaviourStream(driver: Int) -> RandomStream {
        RandomStream(name: "load-driver-\(driver)", seed: seed, replication: 0)
    }
}
