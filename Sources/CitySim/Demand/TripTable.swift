import DispatchCore

/// Where a traced trip starts or ends: a point of the city plane, or one of the city's zones (a zone-ID
/// trip, whose point is drawn inside the zone per run).
public enum TracePlace: Sendable, Equatable {
    /// A point in metres in the zones' plane, inside a zone.
    case point(Position)
    /// A city zone index, 0-based (already shifted by `zone_base`).
    case zone(Int32)
}

/// The trips of a trip file as read, in file order: pickup times on the trace's own time line and the
/// places of both ends, plus what was counted while reading.
///
/// Immutable and shared (a class) by every run of a scenario and every replication, so a file is read
/// once per scenario load. Two tables are equal when their files had the same bytes and were read
/// with the same mapping.
///
/// Invariants: `times`, `origins` and `destinations` have one entry per kept row; every time is
/// finite; every `.point` lies inside a zone of the city and every `.zone` is a valid zone index;
/// `rows == times.count + droppedOutsideCity` for a table as read (a `window` keeps the file's counts).
public final class TripTable: Sendable, Equatable {
    /// The file as named when read (for messages).
    public let file: String
    /// Pickup times, seconds on the trace's time line (`TraceTime`).
    public let times: [Double]
    public let origins: [TracePlace]
    public let destinations: [TracePlace]
    /// The 1-based file line of each kept row (for messages and tests).
    public let lines: [Int32]
    /// Data rows in the file (the header and blank lines not counted).
    public let rows: Int
    /// Rows skipped under `outside_city: drop`.
    public let droppedOutsideCity: Int
    /// The sum of the `passengers` column over kept rows (a blank counts 1; = kept rows without the column).
    public let passengers: Int
    /// FNV-1a 64 of the file's bytes and of the mapping it was read with, 16 hex digits.
    public let contentHash: String

    init(file: String, times: [Double], origins: [TracePlace], destinations: [TracePlace], lines: [Int32],
         rows: Int, droppedOutsideCity: Int, passengers: Int, contentHash: String) {
        self.file = file
        self.times = times
        self.origins = origins
        self.destinations = destinations
        self.lines = lines
        self.rows = rows
        self.droppedOutsideCity = droppedOutsideCity
        self.passengers = passengers
        self.contentHash = contentHash
    }

    public static func == (a: TripTable, b: TripTable) -> Bool { a.contentHash == b.contentHash }

    /// The number of kept trips.
    public var count: Int { times.count }

    /// 00:00 of the day of the earliest trip (0 for an empty table), trace seconds.
    public var firstMidnight: Double {
        guard let first = times.min() else { return 0 }
        return (first / 86_400).rounded(.down) * 86_400
    }

    /// Trips with trace time in [`start`, `start + seconds`).
    public func count(from start: Double, seconds: Double) -> Int {
        times.reduce(0) { $0 + ($1 >= start && $1 < start + seconds ? 1 : 0) }
    }
}

extension TripTable {
    /// The trips with trace time in [`start`, `start + seconds`), in file order.
    func window(from start: Double, seconds: Double) -> TripTable {
        let kept = times.indices.filter { times[$0] >= start && times[$0] < start + seconds }
        return TripTable(file: file, times: kept.map { times[$0] }, origins: kept.map { origins[$0] },
                         destinations: kept.map { destinations[$0] }, lines: kept.map { lines[$0] }, rows: rows,
                         droppedOutsideCity: droppedOutsideCity, passengers: passengers, contentHash: contentHash)
    }
}
