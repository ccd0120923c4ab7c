import Foundation

extension CivilDate {
    /// The instant (seconds since 1970) the day's times count from in `zone`: local noon minus 12 h, as
    /// GTFS counts stop times. It is local midnight on every day without a daylight-saving change; on
    /// such a day, wall-clock times after the change are still exactly `origin + HH·3600 + MM·60`.
    /// - Complexity: O(1).
    public func origin(in zone: TimeZone) -> Double {
        let utcNoon = Double(dayNumber) * 86_400 + 43_200
        // The offset in force at local noon (a change never falls near noon).
        let guess = utcNoon - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: utcNoon)))
        let localNoon = utcNoon - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: guess)))
        return localNoon - 43_200
    }
}
