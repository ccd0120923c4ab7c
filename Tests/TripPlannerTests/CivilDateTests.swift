import Foundation
import Testing
@testable import TripPlanner

/// A date written out as text reads back as the same date, for every year 0–9999 (storage and the API use the text).
@Test func civilDateTextReadsBackForEarlyYears() throws {
    for (year, text) in [(366, "0366-02-26"), (1, "0001-02-26"), (0, "0000-02-26"), (2025, "2025-02-26")] {
        let date = try CivilDate(year: year, month: 2, day: 26)
        #expect(date.description == text)
        #expect(try CivilDate(parsing: date.description) == date)
        let json = try JSONEncoder().encode(date)
        #expect(try JSONDecoder().decode(CivilDate.self, from: json) == date)
    }
}

/// A day's origin is local midnight, and noon minus 12 h on a daylight-saving change day (as GTFS counts).
@Test func dayOriginIsNoonMinusTwelveHoursInTheZone() throws {
    let rome = try #require(TimeZone(identifier: "Europe/Rome"))
    // 2025-03-14: UTC+1 all day, so local midnight, 23:00Z the day before.
    #expect(try CivilDate(parsing: "2025-03-14").origin(in: rome) == 1_741_906_800)
    // 2025-03-30: clocks go 02:00 → 03:00 (UTC+2 at noon): noon − 12 h is 22:00Z on the 29th, so 09:00 wall time
    // (07:00Z) is origin + 9 h.
    #expect(try CivilDate(parsing: "2025-03-30").origin(in: rome) == 1_743_285_600)
    #expect(try CivilDate(parsing: "2025-03-30").origin(in: TimeZone(identifier: "UTC")!) == 1_743_292_800)
}
