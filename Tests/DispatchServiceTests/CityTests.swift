import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// Administrators read and set the map area and zones (D1); a change is logged and replayed.
@Suite struct CityTests {
    static let smallerZones = #"{"width":4000,"height":3000,"zone_side":1000}"#

    @Test func theScenarioMapIsShownWithEachZone() async throws {
        try await ServiceFixture().test { client in
            let city = try await client.call(.get, "/v1/admin/city", token: try await client.admin()).decode(CityBody.self)
            #expect(city.width == 4000 && city.height == 4000 && city.columns == 3 && city.zoneCount == 9)
            #expect(abs(city.zoneArea - 16_000_000 / 9) < 1e-3)  // the fixture's 4/3 km squares
            #expect(city.zoneShape == "square")
            #expect(city.zones.map(\.id) == Array(0..<9))
            #expect(abs(city.zones[8].maxX - 4000) < 1e-6 && city.zones[8].minY > 2600)
            #expect(city.zones[8].outline.count == 4)
        }
    }

    @Test func newZonesSurviveARestartAndD14QueuesUseThem() async throws {
        let folder = try TemporaryFolder()
        let clock = ManualClock()
        let path = folder.path("service.sqlite")
        try await ServiceFixture(store: try SQLiteDispatchStore(path: path), clock: clock).test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            try await client.call(.post, "/v1/driver/shift", token: driver.token, json: #"{"action":"end"}"#)
            let changed = try await client.call(.put, "/v1/admin/city", token: admin, json: Self.smallerZones)
            #expect(changed.status == .ok, "\(changed.text)")
            #expect(try changed.decode(CityBody.self).zoneCount == 12)
        }
        try await ServiceFixture(store: try SQLiteDispatchStore(path: path), clock: clock).test { client in
            let admin = try await client.admin()
            let city = try await client.call(.get, "/v1/admin/city", token: admin).decode(CityBody.self)
            #expect(city.width == 4000 && city.height == 3000 && city.zoneSide == 1000 && city.zoneCount == 12)
            // The driver added before the change is still known and queues in the new zones.
            let token = try await client.login("tx-1@taxi.example", "driver-password")
            try await client.call(.post, "/v1/driver/shift", token: token, json: #"{"action":"start","position":{"x":1500,"y":500}}"#)
            try await client.call(.put, "/v1/driver/availability", token: token, json: #"{"available":true}"#)
            let here = try await client.call(.get, "/v1/queue?x=1900&y=900").decode(QueueBody.self)
            #expect(here.zone == 1 && here.length == 1)
            let west = try await client.call(.get, "/v1/queue?x=500&y=500").decode(QueueBody.self)
            #expect(west.zone == 0 && west.length == 0)
            #expect(try await client.call(.get, "/v1/queue?x=500&y=3500").status == .unprocessableContent)  // outside now
        }
    }

    @Test func hexagonalZonesAreSetShownWithTheirOutlinesAndSurviveARestart() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("service.sqlite")
        let clock = ManualClock()
        let hexagons = #"{"width":4000,"height":3000,"zone_shape":"hexagon","zone_area":500000}"#
        try await ServiceFixture(store: try SQLiteDispatchStore(path: path), clock: clock).test { client in
            let admin = try await client.admin()
            let changed = try await client.call(.put, "/v1/admin/city", token: admin, json: hexagons)
            #expect(changed.status == .ok, "\(changed.text)")
            let city = try changed.decode(CityBody.self)
            #expect(city.zoneShape == "hexagon" && abs(city.zoneArea - 500_000) < 1e-3)
            #expect(city.zones.count == city.zoneCount && city.zones.allSatisfy { $0.outline.count == 6 })
        }
        try await ServiceFixture(store: try SQLiteDispatchStore(path: path), clock: clock).test { client in
            let city = try await client.call(.get, "/v1/admin/city", token: try await client.admin()).decode(CityBody.self)
            #expect(city.zoneShape == "hexagon" && abs(city.zoneArea - 500_000) < 1e-3)
            let centre = city.zones[3]
            let queue = try await client.call(.get, "/v1/queue?x=\(centre.centreX)&y=\(centre.centreY)").decode(QueueBody.self)
            #expect(queue.zone == 3)
            #expect(try await client.call(.get, "/v1/queue?x=1&y=1").status == .unprocessableContent)  // the ragged edge
        }
    }

    @Test func anUnknownZoneShapeIsA422() async throws {
        try await ServiceFixture().test { client in
            let response = try await client.call(.put, "/v1/admin/city", token: try await client.admin(),
                                                 json: #"{"width":4000,"height":4000,"zone_shape":"circle","zone_side":1000}"#)
            #expect(response.status == .unprocessableContent && response.problem?.detail.contains("square or hexagon") == true)
        }
    }

    @Test func theMapCannotChangeWhileATaxiIsOnShift() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            _ = try await client.availableDriver("TX-1", adminToken: admin)
            let refused = try await client.call(.put, "/v1/admin/city", token: admin, json: Self.smallerZones)
            #expect(refused.status == .conflict && refused.problem?.title == "city-in-use")
            #expect(try await client.call(.get, "/v1/admin/city", token: admin).decode(CityBody.self).zoneCount == 9)
        }
    }

    @Test func anOutOfRangeMapIsA422() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            for json in [#"{"width":4000,"height":4000}"#, #"{"width":4000,"height":4000,"zone_side":1,"zone_area":1}"#,
                         #"{"width":-1,"height":4000,"zone_side":100}"#, #"{"width":4000,"height":4000,"zone_side":5000}"#,
                         #"{"width":400000,"height":400000,"zone_side":1}"#, #"{"width":4000,"height":4000,"zone_area":0}"#] {
                let response = try await client.call(.put, "/v1/admin/city", token: admin, json: json)
                #expect(response.status == .unprocessableContent && response.problem?.title == "invalid-city", "\(json)")
            }
            #expect(try await client.call(.put, "/v1/admin/city", token: admin, json: #"{"width":"wide"}"#).status == .badRequest)
        }
    }
}
