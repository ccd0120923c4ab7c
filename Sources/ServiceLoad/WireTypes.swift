import Foundation

// MARK: - The service's JSON bodies, as the load generator reads and writes them

/// A point in the city, metres from the south-west corner.
public struct WirePoint: Codable, Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A ride as the service answers it (`POST /v1/rides`, `GET /v1/rides/{id}`).
public struct WireRide: Codable, Sendable {
    public var id: Int
    public var kind: String
    public var status: String
    public var taxiCode: String?
    public var etaSeconds: Double?
}

struct WireRideRequest: Codable, Sendable {
    var origin: WirePoint
    var destination: WirePoint
    var patienceS: Double?
}

struct WireReservationRequest: Codable, Sendable {
    var origin: WirePoint
    var destination: WirePoint
    var meetingTime: Date
}

struct WireCredentials: Codable, Sendable {
    var email: String
    var password: String
    var name: String?
}

struct WireNewDriver: Codable, Sendable {
    var email: String
    var password: String
    var name: String?
    var licence: String
    var taxiCode: String
}

struct WireAccount: Codable, Sendable { var id: Int }

struct WireSession: Codable, Sendable {
    var token: String
    var account: WireAccount
}

/// `GET /v1/driver`: the driver's state, with the open offer and the current ride.
struct WireDriver: Codable, Sendable {
    struct Offer: Codable, Sendable { var ride: Int }
    var id: Int
    var status: String
    var ride: Int?
    var offer: Offer?
    var position: WirePoint
}

struct WireShift: Codable, Sendable {
    var action: String
    var position: WirePoint?
}

struct WireAvailability: Codable, Sendable { var available: Bool }

/// `GET /v1/admin/state` (one page; `LoadRun.serviceState` joins the pages).
public struct WireServiceState: Codable, Sendable {
    /// One request the service holds, with its state name (`completed`, `rejected`, …).
    public struct Ride: Codable, Sendable { public var id: Int; public var status: String }
    public var now: Double
    public var clockRate: Double
    public var counts: [String: Int]
    public var rides: [Ride]
    /// The next page's `after`; nil on the last page.
    public var nextAfter: Int?
    public var invariantViolations: [String]
    public var replayRefusals: Int
}
