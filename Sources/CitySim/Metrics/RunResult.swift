import DispatchCore
import RoadNetwork

/// Takes a run's ride rows in id order while the run goes on, on a thread of its own (`RidesAside`), each
/// row once it can no longer change: `ResultWriter.RidesCSVFile` writes `rides.csv` with it.
///
/// Invariant (the run's side): `start` first, on the run's thread, before the loop; then `write` on the
/// helper thread with consecutive batches from row 0 on; then `finish(complete: true)` after the last row,
/// or `finish(complete: false)` when the run failed or a write threw. No call follows a throw of `write`
/// but `finish(complete: false)`.
public protocol RideRowsStream: AnyObject, Sendable {
    /// Called before the run's loop, with the road network of a road city (nil on the grid).
    func start(roads: RoadGraph?) throws
    /// Takes `rows[batch]`, the next rows in id order.
    func write(_ rows: RunResult.RideRows, _ batch: Range<Int>) throws
    /// The rows are all written (`complete`), or the run or the stream failed and what was written is void.
    func finish(complete: Bool) throws
}

/// Everything one run measured: the summary, every request and every driver.
public struct RunResult: Sendable {
    public var summary: RunSummary
    /// Every request, in id order: read from the simulator's compact records (`RideRecord`) as rows,
    /// so a run keeps no second copy of them.
    public let rides: RideRows
    public let drivers: [DriverRow]
    /// The city's zones (for the report's per-zone map).
    public let city: CityGeometry
    /// The road network of a road city (drawn under the report's per-zone map; its projection gives
    /// `rides.csv` its lat/lon columns); nil on the grid.
    public var roads: RoadGraph? = nil
    /// Zone columns and rows of the city (hexagons: hexagons in an even row).
    public var zoneColumns: Int { city.columns }
    public var zoneRows: Int { city.rows }

    /// One request, as written to `rides.csv`.
    public struct RideRow: Sendable, Equatable {
        public let id: Int, customer: Int
        public let kind: String, outcome: String
        public let requestedAt: Double, meetingTime: Double?
        public let originX: Double, originY: Double, destinationX: Double, destinationY: Double
        public let originZone: Int
        public let acceptedAt: Double?, pickupAt: Double?, dropoffAt: Double?
        public let driver: Int?
        public let offers: Int, declines: Int, timeouts: Int
        public let fare: Double
        /// Request → pickup, for served immediate requests.
        public var waitS: Double? { kind == "immediate" ? pickupAt.map { $0 - requestedAt } : nil }
    }

    /// The requests of a run as `RideRow`s, made on access from the records the simulator kept (sealed: they
    /// no longer change, so any thread may read them).
    public struct RideRows: RandomAccessCollection, Sendable {
        let records: RideLog.Sealed
        public var startIndex: Int { 0 }
        public var endIndex: Int { records.count }
        public subscript(id: Int) -> RideRow {
            let r = records[id]
            return RideRow(id: id, customer: r.customer.rawValue, kind: r.kind.description,
                           outcome: r.outcome.rawValue, requestedAt: r.requestedAt, meetingTime: r.meetingTime,
                           originX: r.origin.x, originY: r.origin.y, destinationX: r.destination.x,
                           destinationY: r.destination.y, originZone: r.originZone, acceptedAt: r.acceptedAt,
                           pickupAt: r.pickupAt, dropoffAt: r.dropoffAt, driver: r.driver?.rawValue, offers: r.offers,
                           declines: r.declines, timeouts: r.timeouts, fare: r.fare)
        }
    }

    /// One driver's figures over the run.
    public struct DriverRow: Sendable, Equatable {
        public let id: Int
        public let rides: Int, earnings: Double
        public let shiftHours: Double, busyHours: Double, queueWaitHours: Double
    }
}
