import Foundation
import Testing
@testable import ServiceLoad

/// The end-state check: acknowledged rides against the service's state.
@Suite struct EndStateCheckTests {
    func server(_ rides: [Int: String], counts: [String: Int] = [:], violations: [String] = []) -> WireServiceState {
        WireServiceState(clockRate: 1, counts: .init(additionalProperties: counts), invariantViolations: violations, now: 0,
                         replayRefusals: 0, rides: rides.sorted { $0.key < $1.key }.map { .init(id: $0.key, status: $0.value) },
                         total: counts.isEmpty ? rides.count : counts.values.reduce(0, +))
    }

    @Test func holdsWhenEveryAcknowledgedRideIsThere() {
        let check = EndStateCheck(acknowledged: [1: "rejected", 2: "offered"],
                                  server: server([1: "rejected", 2: "completed", 3: "pending"]))
        #expect(check.holds)
        #expect(check.unacknowledged == 1)  // answered by the server, answer lost in flight: not a loss
        #expect(check.summary.hasPrefix("nothing lost, invariants hold"))
    }

    @Test func aMissingAcknowledgedRideIsALoss() {
        let check = EndStateCheck(acknowledged: [1: "rejected", 2: "pending"], server: server([1: "rejected"]))
        #expect(!check.holds)
        #expect(check.lost == [2])
        #expect(check.summary.contains("lost: 1"))
    }

    /// The service counts 5 rides and lists 2: its retention deleted 3, so 3 acknowledged rides may be missing.
    @Test func acknowledgedRidesNoMoreThanTheRetentionDeletedAreNotLost() {
        let check = EndStateCheck(acknowledged: [1: "completed", 2: "rejected", 3: "offered", 4: "completed", 5: "pending"],
                                  server: server([4: "completed", 5: "pending"], counts: ["completed": 3, "rejected": 1, "pending": 1]))
        #expect(check.holds, "\(check.summary)")
        #expect(check.missing == [1, 2, 3] && check.lost.isEmpty)
        #expect(check.deletedByRetention == 3)
        #expect(check.summary == "nothing lost, invariants hold: 5 acknowledged, 2 on the server "
                + "(0 never acknowledged to the client), 3 deleted by the service's retention")
    }

    /// One missing ride more than the retention deleted is a loss; a count cannot say which, so all are listed.
    @Test func moreMissingRidesThanTheRetentionDeletedAreALoss() {
        let check = EndStateCheck(acknowledged: [1: "completed", 2: "rejected", 3: "completed", 4: "completed"],
                                  server: server([4: "completed"], counts: ["completed": 2, "rejected": 1]))
        #expect(!check.holds)
        #expect(check.deletedByRetention == 2)
        #expect(check.lost == [1, 2, 3])
        #expect(check.summary.contains("lost: 3 acknowledged rides missing (more than the 2 deleted), e.g. 1, 2, 3"),
                "\(check.summary)")
    }

    @Test func aFinishedRideInAnotherStateIsReported() {
        let check = EndStateCheck(acknowledged: [1: "completed", 2: "accepted"],
                                  server: server([1: "picked_up", 2: "pending"]))  // D9 may send 2 back to pending
        #expect(check.changedFinished == [.init(id: 1, clientSaw: "completed", serverHas: "picked_up")])
        #expect(!check.holds)
    }

    @Test func invariantViolationsFailTheCheck() {
        let check = EndStateCheck(acknowledged: [:], server: server([:], violations: ["taxi 3 in two queues"]))
        #expect(!check.holds)
        #expect(check.summary.contains("taxi 3 in two queues"))
    }

    @Test func acknowledgementsWrittenToAFileReadBackAsTheLastStatus() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ack-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rides = try AcknowledgedRides(path: path)
        rides.note(1, "pending")
        rides.note(2, "rejected")
        rides.note(1, "accepted")
        rides.note(1, "accepted")  // unchanged: not written again
        rides.close()
        #expect(try AcknowledgedRides.load(path: path) == [1: "accepted", 2: "rejected"])
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 3)
    }
}
