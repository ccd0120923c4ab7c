extension Scenario {
    /// `fleet` — the taxis, as shifts of drivers who log on and off at fixed times every day.
    public struct Fleet: Sendable, Equatable, Encodable {
        /// `scale` — multiplies every shift's taxi count (rounded to the nearest integer). Number >= 0, default 1.
        public var scale: Double
        /// `shifts` — the shifts; each taxi belongs to exactly one shift. Required, at least one.
        public var shifts: [Shift]
        /// `start_positions` — where a taxi is when its shift starts. Default `uniform`;
        /// `hotspots` needs at least one hotspot in `city.hotspots`.
        public var startPositions: StartPositions
        /// Not a key: served area / rectangle area under `city.fit: equal-area` (1 otherwise), set when the
        /// scenario is read, so that taxis per km² served are the scenario's whatever the zones.
        public var densityScale = 1.0

        /// Number of taxis of `shift` after `scale` and the density scale (rounded to the nearest integer).
        public func taxis(in shift: Shift) -> Int { Int((Double(shift.taxis) * scale * densityScale).rounded()) }

        /// Number of distinct taxis over all shifts, after `scale`.
        public var totalTaxis: Int { shifts.map(taxis(in:)).reduce(0, +) }

        enum CodingKeys: String, ScenarioKeys {
            case scale, shifts, startPositions = "start_positions"
        }
    }

    /// `fleet.start_positions` values: `uniform` anywhere in the city, or `hotspots` (drawn by origin weight).
    public enum StartPositions: String, CaseIterable, Sendable, Encodable {
        case uniform, hotspots
    }

    /// `fleet.shifts[i]` — a group of taxis on duty from `start` to `end` every day.
    public struct Shift: Sendable, Equatable, Encodable {
        /// `name` — label in reports. Required, unique among the shifts.
        public var name: String
        /// `start` — time of day the shift begins, `"HH:MM"` (00:00–23:59). Required.
        public var start: TimeOfDay
        /// `end` — time of day the shift ends, `"HH:MM"` (00:00–24:00). Required, different from `start`;
        /// an end before the start wraps midnight (22:00–06:00 lasts 8 h). 00:00–24:00 is all day.
        public var end: TimeOfDay
        /// `taxis` — number of taxis (one driver each) in the shift, before `fleet.scale`. Integer >= 0, required.
        public var taxis: Int
        /// `stagger_minutes` — drivers log on (and off) spread uniformly over this many minutes after `start`
        /// (and `end`). Integer >= 0 and < the shift's length, default 0.
        public var staggerMinutes: Int

        /// Length of the shift in minutes (1–1440).
        public var durationMinutes: Int {
            let length = end.minutes - start.minutes
            return length > 0 ? length : length + TimeOfDay.minutesPerDay
        }

        enum CodingKeys: String, ScenarioKeys {
            case name, start, end, taxis, staggerMinutes = "stagger_minutes"
        }
    }

    /// A time of day, written `"HH:MM"`; `"24:00"` is allowed as a shift end.
    public struct TimeOfDay: Sendable, Equatable, Hashable, Comparable, Encodable, CustomStringConvertible {
        /// Minutes since midnight, 0–1440.
        public var minutes: Int
        /// Hours since midnight, 0–24.
        public var hours: Double { Double(minutes) / 60 }

        static let minutesPerDay = 24 * 60

        /// Creates a time from minutes since midnight (0–1440).
        public init(minutes: Int) { self.minutes = minutes }

        /// Parses `"HH:MM"` (two digits each); nil when malformed or out of range.
        public init?(_ text: String, allowEndOfDay: Bool = false) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
                  let hour = Int(parts[0]), let minute = Int(parts[1]),
                  (0...23).contains(hour) || (allowEndOfDay && hour == 24 && minute == 0),
                  (0...59).contains(minute)
            else { return nil }
            minutes = hour * 60 + minute
        }

        public var description: String {
            let hour = minutes / 60, minute = minutes % 60
            return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        }

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.minutes < rhs.minutes }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(description)
        }

        static func read(_ reader: ScenarioReader, allowEndOfDay: Bool) throws(ScenarioError) -> Self {
            let text = try reader.string()
            guard let time = TimeOfDay(text, allowEndOfDay: allowEndOfDay) else {
                throw reader.error("expected a time \"HH:MM\" in 00:00–\(allowEndOfDay ? "24:00" : "23:59"), got '\(text)'")
            }
            return time
        }
    }
}

// MARK: - Decoding

extension Scenario.Fleet {
    static func read(_ reader: ScenarioReader, city: Scenario.City) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        var names: Set<String> = []
        let shifts = try map.required(.shifts) { (r) throws(ScenarioError) -> [Scenario.Shift] in
            var shifts: [Scenario.Shift] = []
            for element in try r.sequence(minCount: 1) {
                let shift = try Scenario.Shift.read(element)
                guard names.insert(shift.name).inserted else { throw element.error("duplicate shift name '\(shift.name)'") }
                shifts.append(shift)
            }
            return shifts
        }
        let positions: Scenario.StartPositions = try map.choice(.startPositions, default: .uniform)
        if positions == .hotspots && city.hotspots.isEmpty {
            throw map.error(at: .startPositions, "start_positions 'hotspots' needs at least one entry in city.hotspots")
        }
        return Self(scale: try map.double(.scale, default: 1, .nonNegative), shifts: shifts, startPositions: positions,
                    densityScale: city.densityScale)
    }
}

extension Scenario.Shift {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Self {
        let map = try reader.mapping(CodingKeys.self)
        let start = try map.required(.start) { (r) throws(ScenarioError) in
            try Scenario.TimeOfDay.read(r, allowEndOfDay: false)
        }
        let end = try map.required(.end) { (r) throws(ScenarioError) in
            try Scenario.TimeOfDay.read(r, allowEndOfDay: true)
        }
        guard end.minutes % Scenario.TimeOfDay.minutesPerDay != start.minutes || end.minutes == 1440 else {
            throw map.error(at: .end, "end equals start (\(start)); use start \"00:00\", end \"24:00\" for an all-day shift")
        }
        var shift = Self(name: try map.string(.name), start: start, end: end,
                         taxis: try map.int(.taxis, .nonNegative), staggerMinutes: 0)
        shift.staggerMinutes = try map.int(.staggerMinutes, default: 0, Bounds(lower: 0, upper: Double(shift.durationMinutes),
                                                                           upperInclusive: false))
        return shift
    }
}
