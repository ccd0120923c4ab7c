import Foundation
import DispatchCore

/// Turns latitude and longitude into the city plane (metres east and north of the city's
/// south-west corner) by an equirectangular projection — exact enough for a city.
public struct GeoProjection: Sendable, Equatable {
    public var originLatitude: Double
    public var originLongitude: Double

    public init(originLatitude: Double, originLongitude: Double) {
        self.originLatitude = originLatitude
        self.originLongitude = originLongitude
    }

    static let metresPerDegreeLatitude = 110_574.0
    static let metresPerDegreeLongitudeAtEquator = 111_320.0

    public func position(latitude: Double, longitude: Double) -> Position {
        let metresPerDegreeLongitude = Self.metresPerDegreeLongitudeAtEquator * cos(originLatitude * .pi / 180)
        return Position(x: (longitude - originLongitude) * metresPerDegreeLongitude,
                        y: (latitude - originLatitude) * Self.metresPerDegreeLatitude)
    }
}

/// A stop of the network, placed in the city plane.
public struct TransitStop: Sendable, Equatable {
    public var id: String
    public var name: String
    public var position: Position
}

/// One vehicle hop between two consecutive stops of a trip.
struct Connection: Sendable, Equatable {
    var departureStop: Int32
    var arrivalStop: Int32
    var departure: Double
    var arrival: Double
    var trip: Int32
}

/// The timetable of one service day as connections sorted by departure time, ready for the
/// connection-scan router.
///
/// ```swift
/// let network = try TransitNetwork(feed: feed, date: day, projection: GeoProjection(originLatitude: 45, originLongitude: 9))
/// ```
public struct TransitNetwork: Sendable {
    public let stops: [TransitStop]
    let connections: [Connection]
    /// For each trip index, its route's display name and headsign.
    let tripLabels: [String]
    /// Seconds needed to change vehicles at a stop.
    public var transferSeconds: Double

    /// - Parameters:
    ///   - date: the service day; only trips whose service runs on it (`calendar.txt` with the
    ///     exceptions of `calendar_dates.txt`) are kept. A trip of `frequencies.txt` runs once per
    ///     departure of its windows, its stop times shifted to start there.
    ///   - timeOffset: seconds added to every feed time: the feed's day origin (noon minus 12 h in the
    ///     agency's zone) seen from the planner's (0 when both are in one zone).
    /// - Throws: `PlannerError.invalidInput` when a trip's times go backwards.
    /// - Complexity: O(n log n) in the number of connections of the day.
    public init(feed: GTFSFeed, date: CivilDate, projection: GeoProjection, transferSeconds: Double = 60,
                timeOffset: Double = 0) throws(PlannerError) {
        var stopIndex: [String: Int32] = [:]
        stops = feed.stops.enumerated().map { index, stop in
            stopIndex[stop.id] = Int32(index)
            return TransitStop(id: stop.id, name: stop.name,
                               position: projection.position(latitude: stop.latitude, longitude: stop.longitude))
        }
        let running = feed.runningServices(on: date)
        let routes = Dictionary(feed.routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let frequencies = Dictionary(grouping: feed.frequencies, by: \.tripID)
        var byTrip: [String: [GTFSFeed.StopTime]] = [:]
        for time in feed.stopTimes { byTrip[time.tripID, default: []].append(time) }
        var labels: [String] = []
        var connections: [Connection] = []
        for trip in feed.trips where running.contains(trip.serviceID) {
            let route = routes[trip.routeID]
            let name = route.map { $0.shortName.isEmpty ? $0.longName : "line \($0.shortName)" } ?? trip.routeID
            let label = trip.headsign.isEmpty ? name : "\(name) towards \(trip.headsign)"
            let ordered = (byTrip[trip.id] ?? []).sorted { $0.sequence < $1.sequence }
            guard let first = ordered.first else { continue }
            // A timetabled trip runs once, as written; a frequency trip once per departure of its windows.
            let shifts = frequencies[trip.id].map { $0.flatMap(\.departures).map { $0 - first.departure } } ?? [0]
            for shift in shifts {
                let index = Int32(labels.count)
                labels.append(label)
                for (a, b) in zip(ordered, ordered.dropFirst()) {
                    guard b.arrival >= a.departure else {
                        throw .invalidInput("stop_times.txt: trip \(a.tripID) arrives at sequence \(b.sequence) before leaving \(a.sequence)")
                    }
                    connections.append(Connection(departureStop: stopIndex[a.stopID]!, arrivalStop: stopIndex[b.stopID]!,
                                                  departure: a.departure + shift + timeOffset,
                                                  arrival: b.arrival + shift + timeOffset, trip: index))
                }
            }
        }
        connections.sort { ($0.departure, $0.arrival, $0.trip) < ($1.departure, $1.arrival, $1.trip) }
        self.connections = connections
        self.tripLabels = labels
        self.transferSeconds = transferSeconds
    }

    /// Number of connections of the day.
    public var connectionCount: Int { connections.count }

    /// The index of the first connection departing at or after `time`.
    func firstConnection(departingAtOrAfter time: Double) -> Int {
        var low = 0, high = connections.count
        while low < high {
            let middle = (low + high) / 2
            if connections[middle].departure < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Stops within `maximumDistance` walking metres (Manhattan) of `position`, with the distance.
    func stops(near position: Position, within maximumDistance: Double) -> [(stop: Int32, metres: Double)] {
        var found: [(Int32, Double)] = []
        for (index, stop) in stops.enumerated() {
            let metres = stop.position.manhattanDistance(to: position)
            if metres <= maximumDistance { found.append((Int32(index), metres)) }
        }
        return found
    }
}
