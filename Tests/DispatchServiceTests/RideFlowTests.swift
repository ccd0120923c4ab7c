import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// The ride life cycle through the router: request → offer → accept → pickup → drop-off → report.
@Suite struct RideFlowTests {
    @Test func requestOfferAcceptAndCustomerSeesTheTaxi() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")

            let created = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON)
            #expect(created.status == .created)
            let ride = try created.decode(RideBody.self)
            #expect(ride.status == "offered" && ride.kind == "immediate")

            // D3: the driver sees the offer, with its D4 expiry.
            let offered = try await client.call(.get, "/v1/driver", token: driver.token).decode(DriverBody.self)
            #expect(offered.status == "offered" && offered.offer?.ride == ride.id)
            #expect(offered.offer?.expiresAt == Date(timeIntervalSince1970: fixture.clock.now() + 60))

            fixture.clock.advance(by: 5)
            let accepted = try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token)
            #expect(accepted.status == .ok)
            #expect(try accepted.decode(DriverBody.self).status == "to_pickup")

            // D8: the customer sees the taxi code and the ETA.
            let seen = try await client.call(.get, "/v1/rides/\(ride.id)", token: customer.token).decode(RideBody.self)
            #expect(seen.status == "accepted" && seen.taxiCode == "TX-1")
            #expect((seen.etaSeconds ?? 0) > 0)

            fixture.clock.advance(by: 60)
            #expect(try await client.call(.post, "/v1/driver/rides/\(ride.id)/pickup", token: driver.token).status == .ok)
            fixture.clock.advance(by: 600)
            let dropped = try await client.call(.post, "/v1/driver/rides/\(ride.id)/dropoff", token: driver.token,
                                                json: #"{"x":3000,"y":3000}"#)
            #expect(try dropped.status == .ok && dropped.decode(DriverBody.self).status == "unavailable")
            let done = try await client.call(.get, "/v1/rides", token: customer.token).decode(RideList.self)
            #expect(done.rides.map(\.status) == ["completed"] && done.rides[0].fareCharged > 0)

            // D13: both sides may report the other once.
            let report = try await client.call(.post, "/v1/rides/\(ride.id)/report", token: customer.token)
            #expect(try report.status == .ok && report.decode(ReportBody.self).count == 1)
            #expect(try await client.call(.post, "/v1/rides/\(ride.id)/report", token: driver.token).status == .ok)
            #expect(try await client.call(.post, "/v1/rides/\(ride.id)/report", token: customer.token).status == .conflict)
        }
    }

    @Test func noTaxiAvailableIsAnsweredAtOnce() async throws {  // D7
        try await ServiceFixture().test { client in
            let customer = try await client.customer("ana@example.com")
            let created = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON)
            #expect(created.status == .created)
            #expect(try created.decode(RideBody.self).status == "rejected")
        }
    }

    @Test func reservationIsScheduledAndCancellable() async throws {  // D11, D10
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let customer = try await client.customer("ana@example.com")
            let meeting = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: fixture.clock.now() + 3 * 3600))
            let json = #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000},"meeting_time":"\#(meeting)"}"#
            let created = try await client.call(.post, "/v1/reservations", token: customer.token, json: json)
            #expect(created.status == .created)
            let ride = try created.decode(RideBody.self)
            #expect(ride.status == "scheduled" && ride.kind == "reservation")
            let cancelled = try await client.call(.delete, "/v1/rides/\(ride.id)", token: customer.token)
            #expect(try cancelled.decode(RideBody.self).status == "cancelled")

            let soon = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: fixture.clock.now() + 600))
            let tooSoon = try await client.call(.post, "/v1/reservations", token: customer.token,
                                                json: json.replacingOccurrences(of: meeting, with: soon))
            #expect(tooSoon.status == .unprocessableContent && tooSoon.problem?.title == "reservation-too-soon")
        }
    }

    @Test func offerTimeoutPassesTheRequestOn() async throws {  // D4
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            let first = try await client.availableDriver("TX-1", adminToken: admin)
            let second = try await client.availableDriver("TX-2", x: 600, y: 600, adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            fixture.clock.advance(by: 61)
            await fixture.host.fireDueTimers()
            #expect(try await client.call(.get, "/v1/driver", token: first.token).decode(DriverBody.self).status == "available")
            let now = try await client.call(.get, "/v1/driver", token: second.token).decode(DriverBody.self)
            #expect(now.offer?.ride == ride.id)
        }
    }

    @Test func anAcceptAfterTheOfferLapsedIsAConflictEvenBeforeItsTimerFired() async throws {  // D4
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            fixture.clock.advance(by: 61)  // the timer loop has not run yet
            let late = try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token)
            #expect(late.status == .conflict, "\(late.text)")
            #expect(late.problem?.type == "urn:citysim:problem:offer-expired")
            let decline = try await client.call(.post, "/v1/driver/offers/\(ride.id)/decline", token: driver.token)
            #expect(decline.problem?.title == "offer-expired")
            await fixture.host.fireDueTimers()  // D4: the lapsed offer passes on; no other taxi, so "no taxi"
            let body = try await client.call(.get, "/v1/rides/\(ride.id)", token: customer.token).decode(RideBody.self)
            #expect(body.status == "rejected", "\(body)")
        }
    }

    @Test func customerAndDriverFollowTheirEvents() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            let customer = try await client.customer("ana@example.com")
            let customerEvents = await fixture.host.subscribe(.customer(CustomerID(customer.id)))
            let driverEvents = await fixture.host.subscribe(.driver(DriverID(driver.id)))
            let ride = try await client.call(.post, "/v1/rides", token: customer.token, json: rideJSON).decode(RideBody.self)
            try await client.call(.post, "/v1/driver/offers/\(ride.id)/accept", token: driver.token)
            var driverIterator = driverEvents.makeAsyncIterator()
            #expect(await driverIterator.next()?.kind == "offer")
            var customerIterator = customerEvents.makeAsyncIterator()
            let assigned = await customerIterator.next()
            #expect(assigned?.kind == "taxi_assigned" && assigned?.taxiCode == "TX-1" && assigned?.ride == ride.id)
        }
    }

    @Test func publicQueueAndETANeedNoLogin() async throws {  // D14
        try await ServiceFixture().test { client in
            let empty = try await client.call(.get, "/v1/eta?x=900&y=400").decode(ArrivalBody.self)
            #expect(!empty.available && empty.etaSeconds == nil)
            let admin = try await client.admin()
            _ = try await client.availableDriver("TX-1", adminToken: admin)
            let queue = try await client.call(.get, "/v1/queue?x=900&y=400")
            #expect(queue.status == .ok)
            #expect(try queue.decode(QueueBody.self).length == 1)
            #expect(try await client.call(.get, "/v1/queue?x=3900&y=3900").decode(QueueBody.self).length == 0)
            let eta = try await client.call(.get, "/v1/eta?x=900&y=400").decode(ArrivalBody.self)
            #expect(eta.available && (eta.etaSeconds ?? 0) > 0)
        }
    }
}
