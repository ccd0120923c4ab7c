import Foundation
import Testing
@testable import CitySim

/// A bad trip file stops the scenario load with the file, the line, the column and the reason; bad rows never trap.
@Suite struct TripFileErrorTests {
    static let header = "t,ox,oy,dx,dy\n"

    static func error(_ csv: String, demand: String = ReplayFixture.metreDemand, city: String = "") -> ScenarioError? {
        ReplayFixture.error(ReplayFixture.yaml(demand: demand, city: city), files: ["trips.csv": csv])
    }

    @Test("a mapped column missing from the header names the mapping key, the column and the header")
    func missingColumnNamesKeyAndHeader() throws {
        let error = try #require(Self.error("t,ox,oy,dx,destination_y\n2024-03-01 01:00:00,1,1,2,2\n"))
        #expect(error.keyPath == "demand.trips.file")
        #expect(error.reason.contains("trips.csv:1: demand.trips.columns.destination_y_m names the column 'dy', "
                                      + "which the header does not have (header: t, ox, oy, dx, destination_y)"))
    }

    @Test("a bad time names file, line, column and the value")
    func badTimeNamesLineAndColumn() throws {
        let error = try #require(Self.error(Self.header + "2024-03-01 01:00:00,1,1,2,2\n\n2024-03-01 25h,1,1,2,2\n"))
        #expect(error.reason.contains("trips.csv:4: column 't' (1): expected a date-time (YYYY-MM-DD HH:MM:SS, ISO 8601) or seconds, got '2024-03-01 25h'"))
    }

    @Test("a bad coordinate, a short row and an open quote are errors naming their line")
    func badFieldsNameTheirLine() throws {
        let number = try #require(Self.error(Self.header + "2024-03-01 01:00:00,1,north,2,2\n"))
        #expect(number.reason.contains("trips.csv:2: column 'oy' (3): expected a number, got 'north'"))
        let short = try #require(Self.error(Self.header + "2024-03-01 01:00:00,1,1,2\n"))
        #expect(short.reason.contains("trips.csv:2: 4 fields, the header has 5"))
        let quote = try #require(Self.error(Self.header + "\"2024-03-01 01:00:00,1,1,2,2\n"))
        #expect(quote.reason.contains("trips.csv:2: a quoted field is not closed on its line"))
    }

    @Test("a point outside every zone is an error by default, and dropped and counted with outside_city: drop")
    func outsidePointsErrOrDrop() throws {
        let csv = Self.header + "2024-03-01 01:00:00,1,1,2,2\n2024-03-01 02:00:00,1,1,9000,2\n2024-03-01 03:00:00,5,5,6,6\n"
        let error = try #require(Self.error(csv))
        #expect(error.reason.contains("trips.csv:3: column 'dx' (4): the point (9000, 2) m lies outside every zone"))
        let scenario = try ReplayFixture.load(ReplayFixture.yaml(demand: ReplayFixture.metreDemand + "\n  outside_city: drop"),
                                              files: ["trips.csv": csv])
        let trace = try #require(scenario.demand.trips?.trace)
        #expect((trace.rows, trace.count, trace.droppedOutsideCity) == (3, 2, 1))
        #expect(trace.lines == [2, 4])
    }

    @Test("an unknown zone ID is an error naming the IDs the city has")
    func unknownZoneIDIsAnError() throws {
        let demand = ReplayFixture.zoneDemand("zone_base: 1")
        let error = try #require(Self.error("t,PU,DO\n60,1,12\n120,13,1\n", demand: demand))
        #expect(error.reason.contains("trips.csv:3: column 'PU' (2): zone ID 13 is not a zone of the city (IDs 1–12 with zone_base 1)"))
        let word = try #require(Self.error("t,PU,DO\n60,one,12\n", demand: demand))
        #expect(word.reason.contains("trips.csv:2: column 'PU' (2): expected an integer zone ID, got 'one'"))
    }

    @Test("the mapping is checked: one place form per end, lat/lon only with a projection, no synthetic keys beside trips")
    func mappingIsChecked() throws {
        let both = ReplayFixture.metreDemand.replacingOccurrences(of: "dy }", with: "dy, destination_zone: z }")
        #expect(Self.error(Self.header, demand: both)?.reason.contains("the destination needs exactly one of") == true)
        let degrees = """
            trips:
              file: trips.csv
              columns: { pickup_time: t, origin_lat: a, origin_lon: b, destination_zone: z }
            """
        #expect(Self.error("t,a,b,z\n", demand: degrees)?.reason.contains("need city.projection") == true)
        let mixed = ReplayFixture.metreDemand + "\nrequests_per_hour: 5"
        let error = try #require(Self.error(Self.header + "2024-03-01 01:00:00,1,1,2,2\n", demand: mixed))
        #expect(error.keyPath == "demand.requests_per_hour")
    }

    @Test("a window without trips is an error naming the file")
    func emptyWindowIsAnError() throws {
        let demand = ReplayFixture.metreDemand.replacingOccurrences(of: "2024-03-01", with: "2025-01-01")
        let error = try #require(Self.error(Self.header + "2024-03-01 01:00:00,1,1,2,2\n", demand: demand))
        #expect(error.keyPath == "demand.trips.start")
        #expect(error.reason.contains("no trip of trips.csv"))
    }

    @Test("a pinned trace_hash (as the canonical JSON writes it) refuses a file that has changed")
    func pinnedHashRefusesAChangedFile() throws {
        let csv = Self.header + "2024-03-01 01:00:00,1,1,2,2\n"
        let scenario = try ReplayFixture.load(ReplayFixture.yaml(demand: ReplayFixture.metreDemand), files: ["trips.csv": csv])
        let hash = try #require(scenario.demand.trips?.trace.contentHash)
        let pinned = ReplayFixture.metreDemand + "\n  trace_hash: \"\(hash)\""
        #expect(Self.error(csv, demand: pinned) == nil)
        let error = try #require(Self.error(csv + "2024-03-01 02:00:00,1,1,2,2\n", demand: pinned))
        #expect(error.keyPath == "demand.trips.trace_hash")
        #expect(error.reason.contains("trips.csv has changed"))
    }
}
