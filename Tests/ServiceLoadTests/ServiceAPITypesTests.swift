import Crypto
import Foundation
import NIOCore
import ServiceAPITypes
import Testing
@testable import ServiceLoad

/// The load generator's bodies are the types generated from the service's OpenAPI document: they come from
/// the document the service serves, and an answer outside it does not decode. (That the service's real
/// answers decode is shown by `LoadIntegrationTests`, whose loads log in, book, drive and read the state
/// through these types.)
@Suite struct ServiceAPITypesTests {
    /// The document the service serves (a resource of DispatchService).
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Sources/DispatchService/Resources/openapi.json").standardized

    static let ride = """
        {"id": 7, "kind": "immediate", "status": "offered", "origin": {"x": 900, "y": 400},
         "destination": {"x": 3100, "y": 2900}, "requested_at": "2026-11-24T08:00:00Z", "fare_charged": 0,
         "taxi_code": "T-1", "eta_seconds": 120.5}
        """

    static func decodeRide(_ json: String) -> WireRide? {
        APIAnswer(status: 200, body: .init(string: json)).decode(WireRide.self)
    }

    @Test func theGeneratedTypesComeFromTheDocumentTheServiceServes() throws {
        let bytes = try Data(contentsOf: Self.document)
        let hash = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        #expect(hash == ServiceAPIDocument.sha256,
                "openapi.json changed since Sources/ServiceAPITypes was generated: run Scripts/generate-api-types.sh")
    }

    @Test func aRideAsTheDocumentDeclaresItDecodes() throws {
        let ride = try #require(Self.decodeRide(Self.ride))
        #expect(ride.id == 7 && ride.status == .offered && ride.kind == .immediate && ride.taxiCode == "T-1")
        #expect(ride.requestedAt == Date(timeIntervalSince1970: 1_795_507_200))
        let fraction = Self.ride.replacingOccurrences(of: "08:00:00Z", with: "08:00:00.250Z")
        #expect(Self.decodeRide(fraction)?.requestedAt == Date(timeIntervalSince1970: 1_795_507_200.25),
                "RFC 3339 allows a fraction of a second")
    }

    @Test func anAnswerOutsideTheDocumentDoesNotDecode() {
        #expect(Self.decodeRide(Self.ride.replacingOccurrences(of: "\"offered\"", with: "\"lost\"")) == nil,
                "a state the document does not list")
        #expect(Self.decodeRide(Self.ride.replacingOccurrences(of: "\"requested_at\"", with: "\"requestedAt\"")) == nil,
                "a required field under another name")
        #expect(Self.decodeRide(Self.ride.replacingOccurrences(of: "\"fare_charged\": 0,", with: "")) == nil,
                "a required field missing")
    }

    @Test func requestsAreWrittenWithTheDocumentsFieldNames() throws {
        let request = WireRideRequest(destination: .init(x: 3, y: 4), origin: .init(x: 1, y: 2), patienceS: 60)
        let json = try #require(String(data: try WireCoding.encoder.encode(request), encoding: .utf8))
        #expect(json.contains("\"patience_s\":60") && json.contains("\"origin\":{"))
        let reservation = WireReservationRequest(destination: .init(x: 3, y: 4),
                                                 meetingTime: Date(timeIntervalSince1970: 1_795_507_200),
                                                 origin: .init(x: 1, y: 2))
        let text = try #require(String(data: try WireCoding.encoder.encode(reservation), encoding: .utf8))
        #expect(text.contains("\"meeting_time\":\"2026-11-24T08:00:00Z\""))
    }
}
