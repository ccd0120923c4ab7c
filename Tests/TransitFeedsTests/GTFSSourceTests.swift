import Foundation
import Testing
@testable import TripPlanner
@testable import TransitFeeds

/// A fixture feed under `Feeds/` (see `Feeds/make_feeds.py`).
func fixture(_ name: String) throws -> String {
    let folder = try #require(Bundle.module.url(forResource: "Feeds", withExtension: nil))
    return folder.appendingPathComponent(name).path
}

/// Loading a feed from a folder or a `.zip`, and the errors that name what is wrong.
@Suite struct GTFSSourceTests {
    @Test("a deflated archive (feed in a folder) and a stored one (at the root) read as the folder does")
    func zippedFeedsReadLikeTheFolder() throws {
        let folder = try GTFSSource.files(at: try fixture("base"))
        #expect(folder.keys.sorted() == ["agency.txt", "calendar_dates.txt", "frequencies.txt", "routes.txt", "stop_times.txt",
                                         "stops.txt", "trips.txt"])
        #expect(try GTFSSource.files(at: try fixture("base.zip")) == folder)
        #expect(try GTFSSource.files(at: try fixture("stored.zip")) == folder)
    }

    @Test("a corrupt archive is an error naming the archive and the entry")
    func corruptArchiveNamesTheEntry() throws {
        let path = try fixture("corrupt.zip")
        #expect(throws: GTFSSourceError.self) { try GTFSSource.files(at: path) }
        do { _ = try GTFSSource.files(at: path) } catch {
            #expect(error.path == path && error.reason.hasPrefix("base/stops.txt: "), "\(error)")
        }
    }

    @Test("a file that is neither a folder nor a .zip, or no file at all, is an error naming the path")
    func otherPathsAreRefused() throws {
        let stops = try fixture("base/stops.txt")
        do { _ = try GTFSSource.files(at: stops); Issue.record("a .txt was read as a feed") } catch {
            #expect(error.path == stops && error.reason.contains(".zip"))
        }
        do { _ = try GTFSSource.files(at: "/no/such/feed"); Issue.record("a missing path was read") } catch {
            #expect(error.description == "/no/such/feed: no such folder or file")
        }
    }

    @Test("a bad feed names the path, the file, the line, the field and the reason")
    func badFeedNamesFileLineAndField() throws {
        let cases = [("first-untimed", "stop_times.txt:2: field 'arrival_time': the first stop of trip 'LINE' needs a time"),
                     ("no-calendar", "calendar.txt: missing file: a feed needs calendar.txt, calendar_dates.txt or both"),
                     ("bad-zone", "agency.txt:2: field 'agency_timezone': unknown time zone 'Mars/Olympus'")]
        for (name, expected) in cases {
            let path = try fixture(name)
            do { _ = try GTFSSource.feed(at: path); Issue.record("\(name) loaded") } catch {
                #expect(error.path == path && error.reason.hasPrefix(expected), "\(error)")
            }
        }
    }
}

/// What the loaded fixture feed means: calendars, interpolated times, frequencies, the agency's zone.
@Suite struct GTFSFeedContentTests {
    static let friday = try! CivilDate(parsing: "2025-03-14")
    static let projection = GeoProjection(originLatitude: 45, originLongitude: 7)

    func times(_ trip: String) throws -> [Double] {
        try GTFSSource.feed(at: try fixture("base")).stopTimes.filter { $0.tripID == trip }.map(\.arrival)
    }

    @Test("calendar_dates.txt alone carries the services: a listed date runs them, other dates do not")
    func calendarDatesAloneCarryTheServices() throws {
        let feed = try GTFSSource.feed(at: try fixture("base"))
        #expect(feed.services.isEmpty)
        #expect(feed.runningServices(on: Self.friday) == ["WEEKDAY"])
        #expect(feed.runningServices(on: try CivilDate(parsing: "2025-03-15")).isEmpty)
    }

    @Test("untimed stops without shape distances get times by straight-line distance between the timed ones")
    func untimedStopsByStraightLineDistance() throws {
        // Stops at 0, 1000, 3000, 4000 m; 08:00 → 08:40: the middle ones at 1/4 and 3/4 of 40 min.
        let expected: [Double] = [8 * 3600, 8 * 3600 + 600, 8 * 3600 + 1800, 8 * 3600 + 2400]
        let actual = try times("LINE")
        #expect(actual.count == 4 && zip(actual, expected).allSatisfy { abs($0 - $1) < 1 }, "\(actual)")
    }

    @Test("untimed stops with shape_dist_traveled get times by distance along the shape")
    func untimedStopsByShapeDistance() throws {
        // Shape: S2 at 3000 of 4000 → 3/4 of 09:00–09:40, although it is 1/4 of the straight line.
        let actual = try times("SHAPED")
        #expect(actual.count == 3 && abs(actual[1] - (9 * 3600 + 1800)) < 1, "\(actual)")
    }

    @Test("a frequency trip runs from start every headway before end, exact_times 1 and 0 alike")
    func frequencyTripsRunEveryHeadway() throws {
        let feed = try GTFSSource.feed(at: try fixture("base"))
        #expect(feed.frequencies.map(\.exactTimes) == [true, false])
        let network = try TransitNetwork(feed: feed, date: Self.friday, projection: Self.projection)
        let all = network.connections.map(\.departure)
        let departures = Set(all)
        // EXACT: 07:00, 07:15, 07:30, 07:45 (08:00 is the end, excluded); HEADWAY: 18:00, 18:20, 18:40.
        let expected: [Double] = [25_200, 26_100, 27_000, 27_900, 64_800, 66_000, 67_200]
        for hour in expected {
            #expect(departures.contains(hour), "no departure at \(hour)")
        }
        // 08:00 is LINE's own departure only, not a fifth EXACT run; 19:00 is no HEADWAY run.
        #expect(all.filter { $0 == 28_800 }.count == 1 && !departures.contains(68_400))
        // LINE has 3 hops, SHAPED 2, each frequency run 1: 3 + 2 + 4 + 3.
        #expect(network.connectionCount == 12)
    }

    @Test("agency_timezone is read, and a time offset moves every connection by it")
    func agencyTimeZoneAndOffset() throws {
        let feed = try GTFSSource.feed(at: try fixture("base"))
        #expect(feed.agencyTimeZone == "Europe/Rome")
        let local = try TransitNetwork(feed: feed, date: Self.friday, projection: Self.projection)
        let shifted = try TransitNetwork(feed: feed, date: Self.friday, projection: Self.projection, timeOffset: -3600)
        #expect(zip(local.connections, shifted.connections).allSatisfy { $0.departure - 3600 == $1.departure })
    }
}
