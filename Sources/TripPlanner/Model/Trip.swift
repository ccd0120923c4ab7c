import DispatchCore

/// One sub-route of a trip, by one means.
public struct Leg: Sendable, Equatable, Codable {
    public var means: TravelMeans
    @PositionCoding public var from: Position
    @PositionCoding public var to: Position
    /// Seconds since midnight.
    public var departure: Double
    public var arrival: Double
    /// Metres.
    public var distance: Double
    /// Euros.
    public var cost: Double
    /// Grams of CO₂.
    public var co2: Double
    /// What to take or where to go ("line 2 Central → Airport", "taxi, 4 min wait").
    public var detail: String

    public var duration: Double { arrival - departure }

    enum CodingKeys: String, CodingKey {
        case means, from, to, departure, arrival, distance = "distance_m", cost = "cost_eur", co2 = "co2_g", detail
    }
}

/// Encodes a `Position` as `[x, y]` in metres (to 0.1 m) without making `Position` itself
/// `Codable` for every module.
@propertyWrapper
public struct PositionCoding: Sendable, Equatable, Codable {
    public var wrappedValue: Position

    public init(wrappedValue: Position) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        wrappedValue = Position(x: try container.decode(Double.self), y: try container.decode(Double.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode((wrappedValue.x * 10).rounded() / 10)
        try container.encode((wrappedValue.y * 10).rounded() / 10)
    }
}

/// A door-to-door trip: consecutive legs, each starting where and when the previous ended
/// (or later: waiting at a stop is part of the next leg).
public struct Trip: Sendable, Equatable, Codable {
    public var legs: [Leg]
    @PositionCoding public var from: Position
    @PositionCoding public var to: Position
    /// When the traveller leaves `from` and reaches `to`, seconds since midnight.
    public var departure: Double
    public var arrival: Double

    public init(legs: [Leg], from: Position, to: Position, departure: Double, arrival: Double) {
        self.legs = legs
        self.from = from
        self.to = to
        self.departure = departure
        self.arrival = arrival
    }

    /// A trip of no legs for an activity at the same place as the previous one.
    static func stay(at place: Position, time: Double) -> Trip {
        Trip(legs: [], from: place, to: place, departure: time, arrival: time)
    }

    public var duration: Double { arrival - departure }
    public var distance: Double { legs.reduce(0) { $0 + $1.distance } }
    public var cost: Double { legs.reduce(0) { $0 + $1.cost } }
    public var co2: Double { legs.reduce(0) { $0 + $1.co2 } }
    /// The means of the trip: the non-walking one, or walking when it is walking only.
    public var mainMeans: TravelMeans? { legs.first { $0.means != .walk }?.means ?? legs.first?.means }

    func uses(_ means: TravelMeans) -> Bool { legs.contains { $0.means == means } }

    /// The trip's contribution to the day's objective.
    func cost(by criterion: Criterion) -> Double {
        criterion.cost(seconds: duration, euros: cost, gramsCO2: co2)
    }

    /// The same trip moved `offset` seconds later.
    func shifted(by offset: Double) -> Trip {
        var trip = self
        trip.departure += offset
        trip.arrival += offset
        for index in trip.legs.indices {
            trip.legs[index].departure += offset
            trip.legs[index].arrival += offset
        }
        return trip
    }
}
