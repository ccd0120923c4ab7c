import Foundation

/// Parses OpenStreetMap `maxspeed` values into km/h.
///
/// Understood forms: a number (km/h), `"50 km/h"`, `"50 kmh"`, `"30 mph"`, `"10 knots"`, `"walk"`,
/// `"none"` (no limit: the road class default applies), country zones such as `"FI:urban"`,
/// `"DE:rural"`, `"GB:nsl_single"`, and lists `"50;30"` (the lowest wins, as it is the binding limit
/// somewhere along the way). Anything else is nil, so the road class default applies.
///
/// Invariant: a returned speed is finite and > 0.
public enum SpeedLimit {
    /// km/h for "walk" (walking pace as used by routers for living streets marked `maxspeed=walk`).
    public static let walkKmh = 7.0

    /// Country zone limits in km/h (`maxspeed=CC:zone` and `maxspeed:type`), from the OSM wiki's
    /// "Default speed limits" table for the countries listed; unknown countries fall back to `genericZones`.
    static let countryZones: [String: Double] = [
        "FI:urban": 50, "FI:rural": 80, "FI:motorway": 120, "FI:living_street": 20, "FI:trunk": 100,
        "SE:urban": 50, "SE:rural": 70, "SE:motorway": 110,
        "NO:urban": 50, "NO:rural": 80, "NO:motorway": 110,
        "DK:urban": 50, "DK:rural": 80, "DK:motorway": 130,
        "DE:urban": 50, "DE:rural": 100, "DE:living_street": 7, "DE:bicycle_road": 30,
        "AT:urban": 50, "AT:rural": 100, "AT:motorway": 130,
        "CH:urban": 50, "CH:rural": 80, "CH:motorway": 120,
        "FR:urban": 50, "FR:rural": 80, "FR:motorway": 130,
        "NL:urban": 50, "NL:rural": 80, "NL:motorway": 100,
        "IT:urban": 50, "IT:rural": 90, "IT:motorway": 130,
        "ES:urban": 50, "ES:rural": 90, "ES:motorway": 120,
        "PL:urban": 50, "PL:rural": 90, "PL:motorway": 140,
        "RU:urban": 60, "RU:rural": 90, "RU:motorway": 110, "RU:living_street": 20,
        "EE:urban": 50, "EE:rural": 90,
        "GB:nsl_single": 96.56, "GB:nsl_dual": 112.65, "GB:motorway": 112.65,
        "US:urban": 40.23,
    ]
    /// Zone limits used when the country prefix is not in `countryZones`.
    static let genericZones: [String: Double] = [
        "urban": 50, "rural": 90, "motorway": 120, "trunk": 100, "living_street": 20, "zone30": 30, "zone20": 20,
    ]

    /// km/h for a `maxspeed` value, or nil when the value gives no usable limit.
    public static func kmh(_ raw: String) -> Double? {
        let parts = raw.split(separator: ";").compactMap { single(String($0)) }
        return parts.min()
    }

    static func single(_ raw: String) -> Double? {
        let value = raw.trimmingCharacters(in: .whitespaces).lowercased()
        if value.isEmpty || value == "none" || value == "signals" || value == "variable" || value == "unposted" { return nil }
        if value == "walk" { return walkKmh }
        if let colon = value.firstIndex(of: ":") {
            let country = value[..<colon].uppercased()
            let zone = String(value[value.index(after: colon)...])
            if let known = countryZones["\(country):\(zone)"] { return known }
            if zone.hasPrefix("zone"), let n = Double(zone.dropFirst(4)), n > 0 { return n }
            return genericZones[zone]
        }
        var number = Substring(value)
        var factor = 1.0
        for (unit, toKmh) in [("km/h", 1.0), ("kmh", 1.0), ("kph", 1.0), ("mph", 1.609344), ("knots", 1.852)] where number.hasSuffix(unit) {
            number = number.dropLast(unit.count)
            factor = toKmh
            break
        }
        guard let n = Double(String(number).trimmingCharacters(in: .whitespaces)), n.isFinite, n > 0 else { return nil }
        return n * factor
    }
}
