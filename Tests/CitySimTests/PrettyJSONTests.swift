import Foundation
import Testing
@testable import CitySim

/// `PrettyJSON` writes `summary.json` byte for byte as `ResultWriter.json` (`JSONEncoder`) does, and leaves to
/// `JSONEncoder` what it cannot vouch for.
@Suite struct PrettyJSONTests {
    /// Every reference summary under `Results/`, read back and written both ways.
    @Test func everyReferenceSummaryIsWrittenByteForByteAsJSONEncoderWritesIt() throws {
        let results = scenariosDirectory.deletingLastPathComponent().appendingPathComponent("Results")
        let folders = try FileManager.default.contentsOfDirectory(atPath: results.path)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var read = 0
        for folder in folders.sorted() {
            let file = results.appendingPathComponent(folder).appendingPathComponent("summary.json")
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            let summary = try decoder.decode(RunSummary.self, from: data)
            let expected = try ResultWriter.json(summary)
            #expect(try PrettyJSON.data(summary) == expected, "\(folder)")
            #expect(try ResultWriter.summaryJSON(summary) == expected, "\(folder)")
            read += 1
        }
        #expect(read >= 8, "\(read) reference summaries")
    }

    struct Inner: Codable { var aB = 1; var emptyList: [Int] = []; var emptyObject = Empty(); var nested: [[Int]] = [[], [1]] }
    struct Empty: Codable {}
    struct Shapes: Codable {
        var zKey = "a/b \"q\" \\ \n \r \t \u{8} \u{c} \u{1} \u{1b} \u{1f} \u{7f} é 😀"
        var doubles: [Double] = [0, -0.0, 1, 1.5, 0.1, 1e-5, 1e21, 1e16, 123_456_789_012_345_678, 4.9406564584124654e-324,
                                 .greatestFiniteMagnitude, 2.5e-7, 100, 1e15, 12345.678, 0.30000000000000004, -12.5e-10]
        var floats: [Float] = [0.1, 3, -2.5e-7]
        var ints: [Int] = [0, -1, .max, .min]
        var small: Int8 = -8, medium: UInt16 = 65535, unsigned: UInt64 = .max
        var flag = true
        var absent: Int? = nil
        var present: Int? = 3
        var inner = Inner()
        var inners = [Inner(), Inner()]
        var noInners: [Inner] = []
        var p100 = 1, p99 = 2, a10 = 3, a9 = 4
        var p90HalfWidthCI95 = 2.0, jainIfEqualURLValue = "x", aBCDef = 1, ci95HalfWidth = 3, x = 0, xY = 1, URL = 5
    }

    @Test func escapesNumbersEmptyContainersKeyOrderAndSnakeCaseMatchJSONEncoder() throws {
        let shapes = Shapes()
        let written = try PrettyJSON.data(shapes), expected = try ResultWriter.json(shapes)
        #expect(written == expected, "\(String(decoding: written, as: UTF8.self))")
        #expect(try PrettyJSON.data([1.0, 2.5]) == (try ResultWriter.json([1.0, 2.5])))
        #expect(try PrettyJSON.data("top / level") == (try ResultWriter.json("top / level")))
        #expect(try PrettyJSON.data(Empty()) == (try ResultWriter.json(Empty())))
    }

    struct WithNaN: Codable { var value = Double.nan }
    struct WithDate: Codable { var when = Date(timeIntervalSince1970: 1) }
    struct WithURL: Codable { var link = URL(fileURLWithPath: "/tmp") }
    struct Twice: Codable {
        var aB = 1, a_b = 2
    }

    @Test func whatItCannotVouchForIsLeftToJSONEncoder() throws {
        #expect(throws: PrettyJSON.Unsupported.self) { try PrettyJSON.data(WithNaN()) }
        #expect(throws: PrettyJSON.Unsupported.self) { try PrettyJSON.data(WithDate()) }
        #expect(throws: PrettyJSON.Unsupported.self) { try PrettyJSON.data(WithURL()) }
        #expect(throws: PrettyJSON.Unsupported.self) { try PrettyJSON.data(Twice()) }
        // The summary path falls back: a summary JSONEncoder refuses is refused, as before.
        var summary = try Self.referenceSummary()
        summary.throughputPerHour = .infinity
        #expect(throws: EncodingError.self) { try ResultWriter.summaryJSON(summary) }
    }

    static func referenceSummary() throws -> RunSummary {
        let file = scenariosDirectory.deletingLastPathComponent().appendingPathComponent("Results/smoke/summary.json")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(RunSummary.self, from: Data(contentsOf: file))
    }
}
