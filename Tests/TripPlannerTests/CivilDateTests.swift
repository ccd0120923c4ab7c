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
