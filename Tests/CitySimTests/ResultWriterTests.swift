import Testing
@testable import CitySim

@Suite("Result files")
struct ResultWriterTests {
    @Test("CSV numbers: integers plain, others with three decimals like %.3f", arguments: [
        (2.0, "2"), (1.5, "1.500"), (-1.25, "-1.250"), (0.0004, "0.000"), (-0.0004, "0.000"),
        (12.3456, "12.346"), (99.9996, "100.000"), (1234567.891, "1234567.891"),
    ])
    func numbersAreFormattedLikePrintf(value: Double, text: String) {
        #expect(ResultWriter.number(value) == text)
    }

    @Test("a missing value is an empty CSV field")
    func missingNumbersAreEmpty() {
        #expect(ResultWriter.number(nil) == "")
    }

    @Test("the byte writer formats numbers exactly as ResultWriter.number", arguments: [
        2.0, 1.5, -1.25, 0.0004, -0.0004, 12.3456, 99.9996, 1234567.891, 0, -0.0, -7, 1e15, -3e20, .infinity, .nan, 86399.9995,
    ])
    func bytesMatchNumber(value: Double) {
        var bytes = CSVBytes(capacity: 32)
        bytes.number(value)
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == ResultWriter.number(value))
    }
}
