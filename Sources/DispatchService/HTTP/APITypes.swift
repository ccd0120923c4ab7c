import DispatchCore
import Foundation
import Hummingbird

// MARK: - JSON bodies of the API (snake_case on the wire)

/// A point in the city, metres from the south-west corner.
struct Point: Codable, Sendable {
    var x: Double
    var y: Double
    var position: Position { Position(x: x, y: y) }
    init(_ p: Position) { x = p.x; y = p.y }
}

struct RideBody: ResponseEncodable, Decodable, Sendable {
    var id: Int
    /// `immediate` or `reservation`.
    var kind: String
    /// scheduled, pending, offered, accepted, picked_up, completed, rejected, cancelled, expired.
    var status: String
    var origin: Point
    var destination: Point
    var requestedAt: Date
    var meetingTime: Date?
    var taxiCode: String?
    var etaSeconds: Double?
    var fareCharged: Double

    init(_ ride: RideSnapshot) {
        id = ride.id.rawValue
        kind = ride.meetingTime == nil ? "immediate" : "reservation"
        status = Self.name(of: ride.status)
        origin = Point(ride.origin)
        destination = Point(ride.destination)
        requestedAt = Date(timeIntervalSince1970: ride.requestedAt)
        meetingTime = ride.meetingTime.map(Date.init(timeIntervalSince1970:))
        taxiCode = ride.taxiCode
        etaSeconds = ride.etaSeconds
        fareCharged = ride.fareCharged
    }

    static func name(of status: RequestStatus) -> String {
        switch status {
        case .scheduled: "scheduled"
        case .pending: "pending"
        case .offered: "offered"
        case .accepted: "accepted"
        case .pickedUp: "picked_up"
        case .completed: "completed"
        case .rejected: "rejected"
        case .cancelled: "cancelled"
        case .expired: "expired"
        }
    }
}

struct RideList: ResponseEncodable, Decodable, Sendable {
    var rides: [RideBody]
}

struct AccountBody: ResponseEncodable, Decodable, Sendable {
    var id: Int
    var email: String
    var name: String
    var role: Role
    var licence: String?
    var taxiCode: String?

    init(_ a: Account) {
        id = a.id; email = a.email; name = a.name; role = a.role; licence = a.licence; taxiCode = a.taxiCode
    }
}

struct SessionBody: ResponseEncodable, Decodable, Sendable {
    var token: String
    var expiresAt: Date
    var account: AccountBody
}

struct DriverBody: ResponseEncodable, Decodable, Sendable {
    struct Offer: Codable, Sendable {
        var ride: Int
        var expiresAt: Date
    }
    var id: Int
    var taxiCode: String
    /// off_shift, unavailable, available, offered, to_pickup, on_ride.
    var status: String
    var zone: Int?
    var ride: Int?
    var position: Point
    var offer: Offer?
    /// While available: the place in the zone's queue (1 = next offer) and the queue's length.
    var queuePosition: Int?
    var queueLength: Int?
    /// The pickup point and destination of the offered, accepted or carried ride.
    var pickup: Point?
    var destination: Point?

    init(_ d: DriverSnapshot) {
        id = d.id.rawValue
        taxiCode = d.taxiCode
        position = Point(d.position)
        offer = d.offer.map { Offer(ride: $0.request.rawValue, expiresAt: Date(timeIntervalSince1970: $0.expiresAt)) }
        pickup = d.pickup.map(Point.init)
        destination = d.destination.map(Point.init)
        switch d.status {
        case .offShift: status = "off_shift"
        case .unavailable: status = "unavailable"
        case .available(let z): status = "available"; zone = z.index
        case .offered(let r): status = "offered"; ride = r.rawValue
        case .toPickup(let r): status = "to_pickup"; ride = r.rawValue
        case .onRide(let r): status = "on_ride"; ride = r.rawValue
        }
    }
}

struct QueueBody: ResponseEncodable, Decodable, Sendable {
    var zone: Int
    var length: Int
}

struct ArrivalBody: ResponseEncodable, Decodable, Sendable {
    /// False when no taxi is available anywhere (D7).
    var available: Bool
    var etaSeconds: Double?
}

struct ReportBody: ResponseEncodable, Decodable, Sendable {
    /// The reported party's bad evaluations so far (D13).
    var count: Int
}

// MARK: - Helpers for controllers

extension Request {
    /// A finite query number, or 400.
    func number(_ name: String) throws -> Double {
        guard let text = uri.queryParameters.get(name) else { throw Problem.badRequest("query parameter \(name) is missing") }
        guard let value = Double(text) else { throw Problem.badRequest("query parameter \(name) is not a number") }
        return value
    }

    /// An optional integer query parameter within `range`, or 400 naming it.
    func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = uri.queryParameters.get(name) else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw Problem(.badRequest, "invalid-field", detail: "query parameter \(name) must be an integer in \(range.lowerBound)…\(range.upperBound)",
                          field: name)
        }
        return number
    }
}

extension ServiceRequestContext {
    /// The `{id}` path parameter as an integer, or 404.
    func pathID() throws -> Int {
        guard let id = parameters.get("id", as: Int.self) else { throw Problem.notFound("no such resource") }
        return id
    }
}
