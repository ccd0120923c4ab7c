import Foundation
import ServiceAPITypes

// MARK: - The service's JSON bodies, as the load generator reads and writes them

// Each is the type swift-openapi-generator made from the service's OpenAPI document
// (`ServiceAPITypes`), so the load generator cannot drift from the document: a field renamed or
// removed there fails to compile here after `Scripts/generate-api-types.sh`, and a response the
// service answers outside the document (a missing field, an undeclared state) fails to decode
// (`APIAnswer.decode`), which the load tests against a real service see.

/// A point in the city, metres from the south-west corner.
public typealias WirePoint = Components.Schemas.Point
/// A ride as the service answers it (`POST /v1/rides`, `GET /v1/rides/{id}`).
public typealias WireRide = Components.Schemas.Ride
/// `POST /v1/rides`.
typealias WireRideRequest = Components.Schemas.RideRequest
/// `POST /v1/reservations`.
typealias WireReservationRequest = Components.Schemas.ReservationRequest
/// `POST /v1/sessions` (log in).
typealias WireCredentials = Components.Schemas.Credentials
/// `POST /v1/accounts` (a customer signs up).
typealias WireRegistration = Components.Schemas.Registration
/// `POST /v1/admin/drivers`.
typealias WireNewDriver = Components.Schemas.NewDriver
/// A new session: its token and account.
typealias WireSession = Components.Schemas.Session
/// `GET /v1/driver`: the driver's state, with the open offer and the current ride.
typealias WireDriver = Components.Schemas.Driver
/// `POST /v1/driver/shift`.
typealias WireShift = Components.Schemas.Shift
/// `PUT /v1/driver/availability`.
typealias WireAvailability = Components.Schemas.Availability
/// `GET /v1/admin/state` (one page; `LoadRun.serviceState` joins the pages).
public typealias WireServiceState = Components.Schemas.ServiceState

/// The JSON coding of the document's bodies: its own key names (the generated types spell them out) and
/// RFC 3339 times, with or without a fraction of a second.
enum WireCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Date(text, strategy: .iso8601) { return date }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not an RFC 3339 date-time: \(text)"))
        }
        return decoder
    }()
}
