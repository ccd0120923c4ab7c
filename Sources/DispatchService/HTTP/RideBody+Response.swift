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
        var out = ByteBufferAllocator().buffer(capacity: 256)
        try write(into: &out)
        return String(buffer: out)
    }

    /// Appends `json()`'s bytes to `out` (the lean ride path writes them straight into its answer). On a throw,
    /// `out` may hold part of them.
    func write(into out: inout ByteBuffer) throws {
        func number(_ value: Double, _ key: String) throws {
            guard let text = JSONText.number(value) else {
                throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(key) is not finite"))
            }
            out.writeString(text)
        }
        func point(_ p: Point, _ key: String) throws {
            out.writeStaticString("{\"x\":")
            try number(p.x, key)
            out.writeStaticString(",\"y\":")
            try number(p.y, key)
            out.writeStaticString("}")
        }
        out.writeStaticString("{\"destination\":")
        try point(destination, "destination")
        if let etaSeconds {
            out.writeStaticString(",\"eta_seconds\":")
            try number(etaSeconds, "eta_seconds")
        }
        out.writeStaticString(",\"fare_charged\":")
        try number(fareCharged, "fare_charged")
        out.writeStaticString(",\"id\":")
        out.writeString(id.description)
        out.writeStaticString(",\"kind\":")
        out.writeString(try JSONText.string(kind))
        if let meetingTime {
            out.writeStaticString(",\"meeting_time\":\"")
            out.writeString(JSONText.iso8601(meetingTime))
            out.writeStaticString("\"")
        }
        out.writeStaticString(",\"origin\":")
        try point(origin, "origin")
        out.writeStaticString(",\"requested_at\":\"")
        out.writeString(JSONText.iso8601(requestedAt))
        out.writeStaticString("\",\"status\":")
        out.writeString(try JSONText.string(status))
        if let taxiCode {
            out.writeStaticString(",\"taxi_code\":")
            out.writeString(try JSONText.string(taxiCode))
        }
        out.writeStaticString("}")
    }
}
