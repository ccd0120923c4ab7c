/// How a car may use an OpenStreetMap way: in which directions, and whether at all.
///
/// Invariant: a way is drivable only if it has a car `RoadClass`, is not an area, is not under
/// construction or proposed, and its most specific car access tag allows it.
public struct WayRules: Sendable, Equatable {
    /// Directions a car may drive along the way's node order.
    public enum Direction: Sendable, Equatable { case both, forward, backward }

    /// Why a way with a `highway` tag is not part of the drivable network.
    public enum Exclusion: String, Error, Sendable, CaseIterable, Comparable {
        case notForCars = "highway type not for cars"
        case noAccess = "car access denied"
        case area = "area"
        case reversible = "reversible or alternating one-way"
        case tooShort = "fewer than two nodes"

        public static func < (a: Exclusion, b: Exclusion) -> Bool { a.rawValue < b.rawValue }
    }

    public let roadClass: RoadClass
    public let direction: Direction
    /// Speed in km/h along the node order (forward) and against it (backward).
    public let forwardKmh: Double
    public let backwardKmh: Double

    /// Access values that forbid cars (most specific of motorcar > motor_vehicle > vehicle > access).
    static let deniedAccess: Set<String> = ["no", "private", "agricultural", "forestry", "delivery", "emergency", "military", "psv", "bus", "discouraged_no"]
    static let accessKeys = ["motorcar", "motor_vehicle", "vehicle", "access"]

    /// The rules for a way, or the reason it is not drivable.
    public static func evaluate(_ tags: [String: String]) -> Result<WayRules, Exclusion> {
        guard let highway = tags["highway"], let roadClass = RoadClass(highway: highway) else { return .failure(.notForCars) }
        if tags["area"] == "yes" { return .failure(.area) }
        if roadClass == .service, tags["service"] == "emergency_access" { return .failure(.noAccess) }
        for key in accessKeys {
            if let value = tags[key] {
                if deniedAccess.contains(value) { return .failure(.noAccess) }
                break
            }
        }
        let direction: Direction
        switch tags["oneway"] {
        case "yes", "true", "1": direction = .forward
        case "-1", "reverse": direction = .backward
        case "no", "false", "0": direction = .both
        case "reversible", "alternating": return .failure(.reversible)
        default:
            let junction = tags["junction"]
            let implied = roadClass == .motorway || junction == "roundabout" || junction == "circular"
            direction = implied ? .forward : .both
        }
        let base = tags["maxspeed"].flatMap(SpeedLimit.kmh) ?? tags["maxspeed:type"].flatMap(SpeedLimit.kmh)
        let capped = { (speed: Double?) in speed ?? base ?? roadClass.defaultSpeedKmh }
        return .success(WayRules(roadClass: roadClass, direction: direction,
                                 forwardKmh: capped(tags["maxspeed:forward"].flatMap(SpeedLimit.kmh)),
                                 backwardKmh: capped(tags["maxspeed:backward"].flatMap(SpeedLimit.kmh))))
    }
}
