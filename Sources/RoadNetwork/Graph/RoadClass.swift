/// The car-accessible OpenStreetMap `highway=*` types, each with a default speed used when a
/// way has no usable `maxspeed`.
///
/// Invariant: every case is drivable by car; any other `highway` value is not a road class
/// (`init(highway:)` returns nil). Default speeds are finite and > 0 (km/h, as in OSRM's car
/// profile, which they follow: free-flow speeds below the legal limit on urban streets).
public enum RoadClass: String, CaseIterable, Sendable, Codable, Comparable {
    case motorway, motorwayLink = "motorway_link"
    case trunk, trunkLink = "trunk_link"
    case primary, primaryLink = "primary_link"
    case secondary, secondaryLink = "secondary_link"
    case tertiary, tertiaryLink = "tertiary_link"
    case unclassified, residential
    case livingStreet = "living_street"
    case service

    /// The class for an OSM `highway` value, or nil when cars do not use that highway type.
    public init?(highway: String) { self.init(rawValue: highway) }

    /// Speed in km/h used when the way has no usable `maxspeed` tag.
    public var defaultSpeedKmh: Double {
        switch self {
        case .motorway: return 90
        case .motorwayLink: return 45
        case .trunk: return 85
        case .trunkLink: return 40
        case .primary: return 65
        case .primaryLink: return 30
        case .secondary: return 55
        case .secondaryLink: return 25
        case .tertiary: return 40
        case .tertiaryLink: return 20
        case .unclassified: return 25
        case .residential: return 25
        case .livingStreet: return 10
        case .service: return 15
        }
    }

    /// Index 0… in declaration order, for per-class tables.
    public var index: Int { Self.allCases.firstIndex(of: self)! }

    public static func < (a: RoadClass, b: RoadClass) -> Bool { a.index < b.index }
}
