/// One taxi of the fleet with its code and shift intervals.
///
/// Invariant: intervals are in simulated seconds, ordered, each `start < end`, disjoint and
/// not touching (a shift that ends when the next day's begins, such as 00:00–24:00, is one
/// interval: the driver carries on over midnight), clipped to start at 0 (a shift begun the
/// day before still runs at 00:00).
public struct RosterEntry: Sendable, Equatable {
    public var taxiCode: String
    /// Index of the taxi's shift in `fleet.shifts`.
    public var shift: Int
    public var shifts: [ShiftInterval]
}

/// A shift's [start, end) in simulated seconds.
public struct ShiftInterval: Sendable, Equatable {
    public var start: Double
    public var end: Double
}

extension Scenario {
    /// The fleet's taxis in driver order (driver i is entry i), each with its shifts up to `horizon`:
    /// every simulated day has each shift, staggered across the shift's taxis.
    public func roster(horizon: Double) -> [RosterEntry] {
        var roster: [RosterEntry] = []
        for (shiftIndex, shift) in fleet.shifts.enumerated() {
            let count = fleet.taxis(in: shift)
            let start = Double(shift.start.minutes) * 60
            let length = Double(shift.durationMinutes) * 60
            for k in 0..<count {
                let offset = count > 1 ? Double(shift.staggerMinutes) * 60 * Double(k) / Double(count) : 0
                var intervals: [ShiftInterval] = []
                var day = -1.0
                while day * 86400 + start + offset < horizon {
                    let s = day * 86400 + start + offset, e = s + length
                    if let last = intervals.last, last.end >= s {
                        intervals[intervals.count - 1].end = max(last.end, e)  // carries on over midnight
                    } else if e > 0 {
                        intervals.append(ShiftInterval(start: max(0, s), end: e))
                    }
                    day += 1
                }
                roster.append(RosterEntry(taxiCode: "\(shift.name.prefix(3).uppercased())-\(roster.count)", shift: shiftIndex,
                                          shifts: intervals))
            }
        }
        return roster
    }
}
