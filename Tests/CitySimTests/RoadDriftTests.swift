import DispatchCore
import Foundation
import RoadNetwork
import Testing
@testable import CitySim

/// Idle taxis of a road city move along the roads (`drivers.idle: drift`).
@Suite("Road drift")
struct RoadDriftTests {
    @Test("a drift is where its road path is, scaled to the drift's slower time")
    func driftFollowsItsPath() throws {
        let city = try CityModel(scenario: try HelsinkiScenarioTests.helsinki())
        let router = try #require(city.roads)
        let from = Position(x: 100, y: 100), to = Position(x: 900, y: 1500)
        let path = router.path(from: from, to: to, departingAt: 3600)
        var drift = RoadLeg(.drift, from: from, to: to, startedAt: 3600, duration: 2 * path.duration)
        #expect(drift.position(at: 3600, on: router) == from && drift.position(at: drift.endsAt, on: router) == to)
        let middle = drift.position(at: 3600 + path.duration, on: router), expected = path.position(after: path.duration / 2)
        #expect(middle.euclideanDistance(to: expected) < 1e-6)
    }

    @Test("idle taxis in a road city drift along the roads, telling the core where they are on the way")
    func idleTaxisDriftAlongTheRoads() throws {
        let simulation = try CitySimulation(scenario: try HelsinkiScenarioTests.helsinki(["duration_hours=6"]))
        simulation.tracer = TraceRecorder()
        _ = try simulation.run()
        let router = try #require(simulation.city.roads)
        let targets = simulation.city.hotspots.compactMap { simulation.city.nearestHotspot(to: $0.centre) }
        let available = TraceRecord.TaxiState.available.rawValue
        var last: [UInt32: TraceRecord] = [:]
        var onTheWay = 0
        for record in TraceRecord.read(simulation.tracer!.bytes) where record.kind == .taxi {
            defer { last[record.id] = record }
            guard record.state == available, let before = last[record.id], before.state == available,
                  before.x != record.x || before.y != record.y else { continue }
            let place = Position(x: Double(record.x), y: Double(record.y))
            guard !targets.contains(where: { $0.euclideanDistance(to: place) < 1 }) else { continue }  // arrived
            onTheWay += 1
            // The trace keeps whole metres: on the road to within half a metre's diagonal.
            #expect(router.snap(place).distance < 0.75, "\(place) is \(router.snap(place).distance) m off the road")
        }
        #expect(onTheWay > 50)
    }
}
