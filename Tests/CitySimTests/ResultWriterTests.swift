import Foundation
import Testing
@testable import CitySim
import TestSupport

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

    @Test("the byte writer formats many numbers exactly as ResultWriter.number: halves, near-halves, times of day")
    func bytesMatchNumberOverManyValues() {
        var values: [Double] = [0.0005, 1.0005, 2.5, 0.4995, 123.4995, 1e15 - 0.5, 999_999_999_999.9995, 4503599627370495.5]
        values += [0.49999999999999994, 1.9999999999999998, 0.00049999999999999999, 86_399.99949999999]
        var random = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)  // a fixed sequence of doubles over many scales
        for _ in 0..<20_000 {
            let z = random.next()
            let unit = Double(z >> 11) * 0x1p-53
            let scale = [1.0, 10, 1000, 86_400, 1e6, 1e12][Int(z & 7) % 6]
            values.append((unit - 0.25) * scale)
            values.append(((unit * scale * 1000).rounded() + 0.5) / 1000)  // exact thousandth halves, as near as doubles get
        }
        let differing = values.filter { value in
            var bytes = CSVBytes(capacity: 32)
            bytes.number(value)
            return String(decoding: bytes.bytes, as: UTF8.self) != ResultWriter.number(value)
        }
        #expect(differing.isEmpty, "first: \(differing.prefix(5))")
        #expect(values.allSatisfy { $0 < 0 || CSVBytes.roundedHalfAway($0 * 1000) == Int(($0 * 1000).rounded()) })
    }

    @Test("eight digits at once: each of them, zero-padded, for every number below 10^8 tried")
    func eightDigitsAtOnceAreTheNumbersDigits() {
        var numbers = Array(0..<200_000)
        var power = 1
        for _ in 1...8 {
            power *= 10
            numbers += (-3...3).map { power / 2 + $0 } + (1...3).map { power - $0 } + [power / 10 * 9]
        }
        var random = SplitMix64(seed: 808)
        numbers += (0..<300_000).map { _ in Int(random.next() % 100_000_000) }
        let differing = numbers.filter { n in
            guard n >= 0, n < 100_000_000 else { return false }
            let digits = CSVBytes.eightDigits(UInt64(n))
            let text = String(decoding: (0..<8).map { UInt8(truncatingIfNeeded: digits >> (8 * $0)) }, as: UTF8.self)
            return text != String(repeating: "0", count: 8 - String(n).count) + String(n)
        }
        #expect(differing.isEmpty, "first: \(differing.prefix(5))")
    }

    @Test("the byte writer formats a number of every width of whole part as ResultWriter.number", arguments: [
        0.001, 0.5, 9.999, 10.001, 99.5, 100.25, 999.999, 1000.5, 9999.999, 10_000.5, 86_399.999, 99_999.999,
        99_999.9995, 100_000.001, 123_456.789, -0.001, -9.999, -10.5, -99_999.999, -100_000.5,
    ])
    func bytesMatchNumberAtEveryWidth(value: Double) {
        var bytes = CSVBytes(capacity: 8)
        bytes.ascii("x")
        bytes.number(value)
        bytes.ascii("y")
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == "x" + ResultWriter.number(value) + "y")
    }

    @Test("the byte writer writes integers of every width in full", arguments: [
        0, 7, -1, 10, 99, 100, 101, 12345, 1_000_000, 86_400, Int.max, Int.min,
    ])
    func bytesWriteIntegers(value: Int) {
        var bytes = CSVBytes(capacity: 8)
        bytes.int(value)
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == String(value))
    }

    @Test("the byte writer gives every integer either side of each power of ten its full width")
    func bytesWriteIntegersAtEveryPowerOfTen() {
        var values: [Int] = [0, 1, 9, Int.max, Int.min, Int.min + 1]
        var power = 1
        for _ in 1...18 {
            power *= 10
            values += [power - 1, power, power + 1, 2 * power - 1, -(power - 1), -power]
        }
        let differing = values.filter { value in
            var bytes = CSVBytes(capacity: 8)
            bytes.int(value)
            return String(decoding: bytes.bytes, as: UTF8.self) != String(value)
        }
        #expect(differing.isEmpty, "first: \(differing.prefix(5))")
        let powers: [UInt] = (0..<20).map { k in (0..<k).reduce(1) { power, _ in power * 10 } }
        powers.withUnsafeBufferPointer { powers in
            #expect((0..<1000).allSatisfy { CSVBytes.decimalWidth(UInt($0), powers: powers.baseAddress!) == String($0).count })
        }
    }

    @Test("drivers.csv has one row per driver, its figures as ResultWriter.number writes them")
    func driversFileMatchesTheRows() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml")
        let result = try CitySimulation(scenario: scenario, seed: 3).run()
        let expected = "driver,rides,earnings,shift_hours,busy_hours,queue_wait_hours\n" + result.drivers.map { d in
            "\(d.id),\(d.rides),\(ResultWriter.number(d.earnings)),\(ResultWriter.number(d.shiftHours)),"
                + "\(ResultWriter.number(d.busyHours)),\(ResultWriter.number(d.queueWaitHours))\n"
        }.joined()
        #expect(result.drivers.count > 10 && result.drivers.contains { $0.earnings != $0.earnings.rounded() })
        #expect(ResultWriter.driversCSV(result) == expected)
    }

    @Test("each rides.csv row holds its RideRow's fields in the header's order, written from the record")
    func ridesRowsMatchTheirRideRows() throws {
        let reservations = ["duration_hours=5", "demand.reservations.share=0.2", "demand.reservations.lead_min_hours=2",
                            "demand.reservations.lead_max_hours=2.5"]
        let scenario = try SimulationRunTests.scenario("smoke.yaml", reservations)
        let result = try CitySimulation(scenario: scenario, seed: 5).run()
        func field(_ value: Double?) -> String { ResultWriter.number(value) }
        let expected = result.rides.map { r in
            ["\(r.id)", "\(r.customer)", r.kind, r.outcome, field(r.requestedAt), field(r.meetingTime), field(r.originX),
             field(r.originY), field(r.destinationX), field(r.destinationY), "\(r.originZone)", field(r.acceptedAt),
             field(r.pickupAt), field(r.dropoffAt), field(r.waitS), r.driver.map(String.init) ?? "", "\(r.offers)",
             "\(r.declines)", "\(r.timeouts)", field(r.fare)].joined(separator: ",")
        }
        let lines = ResultWriter.ridesCSV(result).split(separator: "\n").map(String.init)
        #expect(lines.first == ResultWriter.ridesCSVColumns)
        #expect(Array(lines.dropFirst()) == expected)
        let kinds = Set(result.rides.map { "\($0.kind) \($0.outcome)" })
        #expect(kinds.contains("reservation served") && kinds.contains("immediate served") && kinds.count >= 4, "\(kinds)")
    }

    @Test("an outcome's rides.csv text is its raw value", arguments: [
        RideRecord.Outcome.pending, .served, .rejected, .cancelled, .expired,
    ])
    func outcomeTextIsItsRawValue(outcome: RideRecord.Outcome) {
        #expect(outcome.csvText.description == outcome.rawValue)
    }

    @Test("the four files made side by side hold what each maker gives alone")
    func filesWrittenSideBySideMatchTheirMakers() throws {
        let scenario = try SimulationRunTests.scenario("smoke.yaml")
        let result = try CitySimulation(scenario: scenario, seed: 3).run()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("citysim-writer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try ResultWriter.write(result, to: folder)
        func file(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
        #expect(try file("summary.json") == ResultWriter.json(result.summary))
        #expect(try file("drivers.csv") == Data(ResultWriter.driversCSV(result).utf8))
        #expect(try file("rides.csv") == Data(ResultWriter.ridesCSV(result).utf8))
        #expect(try file("report.html") == Data(ReportPage.html(for: result).utf8))
    }

    @Test("the byte writer grows past its first capacity without losing a byte")
    func bytesGrowPastCapacity() {
        var bytes = CSVBytes(capacity: 8)
        var expected = ""
        for i in 0..<2000 {
            bytes.int(i * 37); bytes.comma(); bytes.number(Double(i) / 8); bytes.newline()
            expected += "\(i * 37),\(ResultWriter.number(Double(i) / 8))\n"
        }
        bytes.text("end")
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == expected + "end")
        #expect(bytes.count == expected.utf8.count + 3)
    }

    @Test("degrees keep seven decimals, zero-padded, with the sign", arguments: [
        (60.1698557, "60.1698557"), (-0.5, "-0.5000000"), (24.0000001, "24.0000001"), (-179.99999996, "-180.0000000"),
        (0.00000004, "0.0000000"), (-0.00000004, "0.0000000"),
    ])
    func bytesWriteDegrees(value: Double, text: String) {
        var bytes = CSVBytes(capacity: 8)
        bytes.degrees(value)
        #expect(String(decoding: bytes.bytes, as: UTF8.self) == text)
    }
}
