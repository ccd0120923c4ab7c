import DispatchCore
import RoadNetwork

/// Everything one run measured: the summary, every request and every driver.
public struct RunResult: Sendable {
    public var summary: RunSummary
    public let rides: [RideRow]
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

    /// One driver's figures over the run.
    public struct DriverRow: Sendable, Equatable {
        public let id: Int
        public let rides: Int, earnings: Double
        public let shiftHours: Double, busyHours: Double, queueWaitHours: Double
    }
}
