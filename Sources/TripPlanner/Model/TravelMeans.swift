/// The ways of getting somewhere. Raw values are the names used in day files and JSON.
public enum TravelMeans: String, CaseIterable, Sendable, Codable, Comparable {
    case walk
    case ownBike = "bike"
    case ownCar = "car"
    case transit
    case bikeSharing = "bike-sharing"
    case carSharing = "car-sharing"
    case taxi

    public static func < (a: TravelMeans, b: TravelMeans) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Whether riding it counts as cycling (rain and hour limits on bikes).
    var isBike: Bool { self == .ownBike || self == .bikeSharing }
}

/// What a day's schedule minimises.
public enum Criterion: String, CaseIterable, Sendable, Codable {
    /// Total door-to-door travel time (waits included).
    case fastest
    /// Total money spent on travel.
    case cheapest
    /// Total grams of CO₂ emitted by the user's travel.
    case greenest

    /// The number a trip adds to the day's objective: the criterion's quantity plus a
    /// tie-break small enough never to outweigh it (time for cost and CO₂, money for time).
    func cost(seconds: Double, euros: Double, gramsCO2: Double) -> Double {
        switch self {
        case .fastest: return seconds + euros * 1e-3
        case .cheapest: return euros + seconds * 1e-6
        case .greenest: return gramsCO2 + seconds * 1e-6
        }
    }
}
