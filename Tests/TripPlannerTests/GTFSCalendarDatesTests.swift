import Testing
@testable import TripPlanner

/// `calendar_dates.txt` adds and removes services on single dates (the test day is Friday 2025-03-14).
@Suite struct GTFSCalendarDatesTests {
    static func files(calendar: String = "S,1,1,1,1,1,1,1,20250101,20251231", dates: String? = nil) -> [String: String] {
        var files = handFeed(stops: [("A", point(0, 0)), ("B", point(1000, 0))],
                             trips: [("T", [("A", "08:00:00"), ("B", "08:05:00")])], calendar: calendar)
        if let dates { files["calendar_dates.txt"] = "service_id,date,exception_type\n\(dates)\n" }
        return files
    }

    @Test("a date removed by calendar_dates.txt has no service")
    func removedDateHasNoService() throws {
        #expect(try network(Self.files()).connectionCount == 1)
        #expect(try network(Self.files(dates: "S,20250314,2")).connectionCount == 0)
        #expect(try network(Self.files(dates: "S,20250315,2")).connectionCount == 1)
    }

    @Test("a date added by calendar_dates.txt runs a service calendar.txt does not run that day")
    func addedDateRunsTheService() throws {
        let mondaysOnly = "S,1,0,0,0,0,0,0,20250101,20251231"
        #expect(try network(Self.files(calendar: mondaysOnly)).connectionCount == 0)
        #expect(try network(Self.files(calendar: mondaysOnly, dates: "S,20250314,1")).connectionCount == 1)
    }

    @Test("a service known only from calendar_dates.txt may be referenced by trips")
    func serviceOnlyInCalendarDatesIsKnown() throws {
        var files = Self.files(calendar: "OTHER,1,1,1,1,1,1,1,20250101,20251231", dates: "S,20250314,1")
        #expect(try network(files).connectionCount == 1)
        files["calendar_dates.txt"] = nil
        #expect(throws: GTFSError.self) { try GTFSFeed.read(files: files) }
    }

    @Test("a bad exception_type names its line and field")
    func badExceptionTypeIsLocated() {
        #expect(throws: GTFSError(file: "calendar_dates.txt", line: 2, field: "exception_type",
                                  reason: "expected 1 (added) or 2 (removed), got '3'")) {
            try GTFSFeed.read(files: Self.files(dates: "S,20250314,3"))
        }
    }
}
