import DispatchCore

/// The customers of a trip replay (`demand.trips`) or of a fitted OD matrix (`demand.od_matrix`) in one
/// run: when the next one asks, from where and to where. The simulator and the load generator both read
/// their customers from it, so they see the same ones for a seed.
///
/// - Replay: the run's `ReplaySchedule`, drawn up front from the `tripReplay` stream.
/// - OD matrix: arrival times from `DemandProcess` at the fitted rates × scale (the `arrivals` stream, as
///   the synthetic model draws them); per arrival one (origin zone, destination zone) pair from its
///   hour's matrix, then the origin's and the destination's points (the `places` stream). With demand zones
///   of its own (`od_matrix.zones`) the points are drawn in those zones' polygons, and an arrival whose
///   origin or destination lies outside every dispatch zone is skipped and its time kept in `droppedTimes`
///   (as a replay's `outside_city: drop` skips such a row).
///
/// Invariant: `next` returns customers in non-decreasing time, each in [0, horizon), each place in a zone
/// (and, in a road city, on the nearest road whenever that point is in a zone too).
final class RealDemand {
    /// The stream a replay's resampling and zone points come from.
    static let replayStreamName = "tripReplay"

    private enum Source {
        case replay(ReplaySchedule)
        case odMatrix(DemandProcess, [DiscreteDistribution], [[ODMatrix.Pair]])
    }

    private let source: Source
    private let zones: ZonePoints
    /// Where OD-matrix zones' points are drawn: `zones`, or the matrix's own demand zones.
    private let matrixZones: ZonePoints
    /// Matrix zone → zone of `matrixZones` (the identity without demand zones of its own).
    private let matrixZone: [Int]
    /// Times of the arrivals skipped because a point of theirs lies outside every dispatch zone (demand zones only).
    private(set) var droppedTimes: [Double] = []
    /// The city, whose road network (if any) every place is snapped to.
    private let city: CityModel
    private let horizon: Double
    private var nextIndex = 0

    /// The scenario's real demand, or nil for the synthetic model.
    init?(scenario: Scenario, city: CityModel, streams: RandomStreams, horizon: Double) throws {
        // The synthetic model first, before building anything it does not use.
        guard scenario.demand.trips != nil || scenario.demand.odMatrix != nil else { return nil }
        let demand = scenario.demand
        zones = ZonePoints(layout: city.geometry.layout, roads: city.roads)
        if let fitted = demand.odMatrix, let own = fitted.zones {
            // In the zones' plane: the rectangle's box moved by `rectangleOrigin` (`Demand.ODMatrixSpec.readZones`).
            matrixZones = ZonePoints(layout: try ZoneLayout(polygons: own.zones), roads: city.roads)
            matrixZone = fitted.demandZone
        } else {
            matrixZones = zones
            matrixZone = Array(0..<zones.layout.zoneCount)
        }
        self.city = city
        self.horizon = horizon
        if let replay = demand.trips {
            source = .replay(ReplaySchedule(replay: replay, scale: demand.scale, horizon: horizon, zones: zones,
                                            streams.stream(named: Self.replayStreamName)))
        } else if let fitted = demand.odMatrix {
            let pairs = (0..<24).map { fitted.model.pairs(atHour: $0) }
            // An hour without pairs has rate 0 (checked when read): a placeholder table is never drawn from.
            let tables = try pairs.map { try DiscreteDistribution(weights: $0.isEmpty ? [1] : $0.map { Double($0.trips) }) }
            source = .odMatrix(DemandProcess(ratePerHour: (0..<24).map(demand.rate(atHour:))), tables, pairs)
        } else {
            return nil
        }
    }

    /// How many customers to size storage for.
    var expectedCount: Double {
        switch source {
        case .replay(let schedule): return Double(schedule.trips.count)
        case .odMatrix(let process, _, _): return process.expectedArrivals(horizon: horizon)
        }
    }

    /// The next customer after `time`, or nil when none comes before the horizon.
    func next(after time: Double, arrivals: RandomStream, places: RandomStream) -> DemandTrip? {
        switch source {
        case .replay(let schedule):
            guard nextIndex < schedule.trips.count else { return nil }
            nextIndex += 1
            let trip = schedule.trips[nextIndex - 1]
            return DemandTrip(time: trip.time, origin: city.onRoad(trip.origin), destination: city.onRoad(trip.destination))
        case .odMatrix(let process, let tables, let pairs):
            var after = time
            while let at = process.nextArrival(after: after, horizon: horizon, arrivals) {
                let hour = Int(at / 3600) % 24
                let pair = pairs[hour][tables[hour].sample(using: places)]
                let origin = city.onRoad(matrixZones.point(in: matrixZone[pair.origin], places))
                let destination = city.onRoad(matrixZones.point(in: matrixZone[pair.destination], places))
                if city.geometry.contains(origin), city.geometry.contains(destination) {
                    return DemandTrip(time: at, origin: origin, destination: destination)
                }
                droppedTimes.append(at)
                after = at
            }
            return nil
        }
    }
}
