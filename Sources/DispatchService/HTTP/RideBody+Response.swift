import Foundation
import Hummingbird
import NIOCore

extension RideBody {
    /// The ride as its JSON response, written by hand: the same bytes and headers the context's
    /// `JSONEncoder` (snake_case keys, sorted, ISO 8601 dates) gives (a test compares the two),
    /// at a fraction of the CPU. `POST /v1/rides` answers with one of these per request, and the
    /// encoder's key conversion and sorting were the largest part of encoding it.
    /// Lists of rides still go through the encoder.
    /// The content type of a ride's JSON answer.
    static let contentType = "application/json; charset=utf-8"

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = ByteBuffer(string: try json())
        var headers = HTTPFields()
        headers.reserveCapacity(4)
        headers.append(.init(name: .contentType, value: Self.contentType))
        headers.append(.init(name: .contentLength, value: body.readableBytes.description))
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// Compact JSON, keys sorted as `.sortedKeys` sorts them, absent optionals left out.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, as `JSONEncoder` does.
    func json() throws -> String {
        func number(_ value: Double, _ key: String) throws -> String {
            guard let text = JSONText.number(value) else {
                throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(key) is not finite"))
            }
            return text
        }
        func point(_ p: Point, _ key: String) throws -> String {
            "{\"x\":" + (try number(p.x, key)) + ",\"y\":" + (try number(p.y, key)) + "}"
        }
        var out = "{\"destination\":" + (try point(destination, "destination"))
        if let etaSeconds { out += ",\"eta_seconds\":" + (try number(etaSeconds, "eta_seconds")) }
        out += ",\"fare_charged\":" + (try number(fareCharged, "fare_charged"))
        out += ",\"id\":" + id.description
        out += ",\"kind\":" + (try JSONText.string(kind))
        if let meetingTime { out += ",\"meeting_time\":\"" + JSONText.iso8601(meetingTime) + "\"" }
        out += ",\"origin\":" + (try point(origin, "origin"))
        out += ",\"requested_at\":\"" + JSONText.iso8601(requestedAt) + "\""
        out += ",\"status\":" + (try JSONText.string(status))
        if let taxiCode { out += ",\"taxi_code\":" + (try JSONText.string(taxiCode)) }
        out += "}"
        return out
    }
}
