import DispatchCore
import RoadNetwork

/// Work a run hands its finished ride rows (and the road network of a road city) to while it computes
/// its summary: `ResultWriter.ridesCSVWriter(into:)` writes `rides.csv` with it.
public typealias RideRowsConsumer = @Sendable (RunResult.RideRows, RoadGraph?) throws -> Void

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

    /// The requests of a run as `RideRow`s, made on access from the records the simulator kept.
    public struct RideRows: RandomAccessCollection, Sendable {
        let records: [RideRecord]
        public var startIndex: Int { 0 }
        public var endIndex: Int { records.count }
        public subscript(id: Int) -> RideRow {
            let r = records[id]
            return RideRow(id: id, customer: r.customer.rawValue, kind: r.isReservation ? "reservation" : "immediate",
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
