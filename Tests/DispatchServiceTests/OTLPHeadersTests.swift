import Foundation
import Testing
@testable import DispatchService

/// `OTLPHeaders`: `OTEL_EXPORTER_OTLP_HEADERS`'s `key=value,…` list, its decoding, merging and refusals.
@Suite struct OTLPHeadersTests {
    static func pairs(_ headers: OTLPHeaders) -> [String] { headers.fields.map { "\($0.name): \($0.value)" } }

    @Test func aListIsReadAsKeyValuePairsWithBlanksIgnoredAndValuesPercentDecoded() throws {
        let headers = try OTLPHeaders(parsing: " authorization = Bearer%20abc%3D%3D , x-tenant=citysim,,x-query=a=b, empty= ")
        #expect(Self.pairs(headers) == ["authorization: Bearer abc==", "x-tenant: citysim", "x-query: a=b", "empty: "])
        #expect(try OTLPHeaders(parsing: "").fields.isEmpty)
        #expect(try OTLPHeaders(parsing: "x-name=%C3%A9t%C3%A9").fields.first?.value == "été")
    }

    @Test func theTracesListWinsOverTheGeneralOneHeaderByHeader() throws {
        let general = try OTLPHeaders(parsing: "Authorization=Bearer general,x-general=1")
        let traces = try OTLPHeaders(parsing: "authorization=Bearer traces,x-traces=2")
        #expect(Self.pairs(general.overridden(by: traces))
                == ["Authorization: Bearer traces", "x-general: 1", "x-traces: 2"])
        #expect(Self.pairs(try OTLPHeaders(parsing: "x-a=1,X-A=2")) == ["x-a: 2"], "a name given twice keeps the later value")
    }

    @Test func aMalformedListIsRefusedWithAReasonThatNeverRepeatsAValue() throws {
        func reason(_ text: String) -> String? {
            do { _ = try OTLPHeaders(parsing: text); return nil } catch { return error.description }
        }
        #expect(reason("x-tenant=citysim,Bearer s3cret") == "entry 2 has no '=' (expected key=value pairs separated by commas)")
        #expect(reason("auth token=s3cret")?.hasPrefix("entry 1: the key is not an HTTP header name") == true)
        #expect(reason("=s3cret")?.hasPrefix("entry 1: the key is not an HTTP header name") == true)
        #expect(reason("authorization=s3cret%zz") == "entry 1 ('authorization'): the value has a malformed %-escape")
        #expect(reason("authorization=s3cret%0D%0Ax-injected: 1") == "entry 1 ('authorization'): the value holds a control character")
        #expect(reason("authorization=s3cret%FF") == "entry 1 ('authorization'): the value has a malformed %-escape", "not UTF-8")
    }

    @Test func aListIsWrittenBackAsTheTextItWasReadFrom() throws {
        let headers = try OTLPHeaders(parsing: "authorization=Bearer%20a%2Cb,x-n=1")
        let written = try String(decoding: JSONEncoder().encode([headers]), as: UTF8.self)
        #expect(written == #"["authorization=Bearer%20a%2Cb,x-n=1"]"#)
        #expect(try JSONDecoder().decode([OTLPHeaders].self, from: Data(written.utf8)) == [headers])
    }
}
