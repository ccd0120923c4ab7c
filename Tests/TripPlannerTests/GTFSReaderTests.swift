import Foundation
import Testing
@testable import TripPlanner

private func validFiles() -> [String: String] {
    handFeed(stops: [("A", point(0, 0)), ("B", point(1000, 0))], trips: [("T", [("A", "08:00:00"), ("B", "08:05:00")])])
}

/// A missing required column is reported with the file, the header line and the column.
@Test func aMissingColumnNamesTheFileLineAndField() {
    var files = validFiles()
    files["stops.txt"] = "stop_id,stop_name,stop_lon\nA,Stop A,0\n"
    #expect(throws: GTFSError(file: "stops.txt", line: 1, field: "stop_lat", reason: "missing required column 'stop_lat'")) {
        try GTFSFeed.read(files: files)
    }
}

/// A malformed time is reported at its line and field.
@Test func aBadTimeNamesItsLineAndField() {
    var files = validFiles()
    files["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,A,1\nT,8h05,08:05:00,B,2\n"
    do {
        _ = try GTFSFeed.read(files: files)
        Issue.record("expected an error")
    } catch {
        #expect(error.file == "stop_times.txt" && error.line == 3 && error.field == "arrival_time")
    }
}

/// A stop time naming an unknown stop is refused.
@Test func anUnknownStopReferenceIsRefused() {
    var files = validFiles()
    files["stop_times.txt"] = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT,08:00:00,08:00:00,Z,1\n"
    #expect(throws: GTFSError(file: "stop_times.txt", line: 2, field: "stop_id", reason: "unknown stop_id 'Z' (not in stops.txt)")) {
        try GTFSFeed.read(files: files)
    }
}

/// A row with more fields than the header is refused at its line.
@Test func aRowWithTheWrongFieldCountIsRefused() {
    var files = validFiles()
    files["routes.txt"] = "route_id,route_short_name,route_long_name\nR,1,\"Test, line\",extra\n"
    #expect(throws: GTFSError(file: "routes.txt", line: 2, field: nil, reason: "expected 3 fields as in the header, got 4")) {
        try GTFSFeed.read(files: files)
    }
}

/// Quoted fields may hold commas and doubled quotes.
@Test func quotedFieldsKeepCommasAndQuotes() throws {
    var files = validFiles()
    files["routes.txt"] = "route_id,route_short_name,route_long_name\nR,1,\"West, \"\"old\"\" line\"\n"
    #expect(try GTFSFeed.read(files: files).routes[0].longName == "West, \"old\" line")
}

/// The bundled rush-hour feed reads, and its stops land inside the 12 × 10 km city.
@Test func theBundledRushHourFeedReadsIntoTheCity() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/gtfs/rush-hour")
    var files: [String: String] = [:]
    for name in GTFSFeed.fileNames + GTFSFeed.optionalFileNames {
        files[name] = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
    let feed = try GTFSFeed.read(files: files)
    let network = try TransitNetwork(feed: feed, date: testDay, projection: GeoProjection(originLatitude: 45, originLongitude: 7))
    #expect(feed.routes.count == 4)
    #expect(network.stops.allSatisfy { (-1...12_001).contains($0.position.x) && (-1...10_001).contains($0.position.y) })
    let centre = try #require(network.stops.first { $0.name == "Centre" })
    #expect(abs(centre.position.x - 6000) < 1 && abs(centre.position.y - 5000) < 1)
}
