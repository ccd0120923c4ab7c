import Foundation
import Testing
@testable import DispatchService

/// `BackgroundWork`: the checkpoint's encoding runs on a thread of its own at a lower priority.
struct BackgroundWorkTests {
    struct Refused: Error {}

    @Test func workRunsOnANamedThreadOfItsOwnAtALowerPriorityAndLeavesTheCallerAlone() async throws {
        let before = BackgroundWork.currentNiceness()
        let seen = try await BackgroundWork.run("citysim test work") {
            ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "", BackgroundWork.currentNiceness())
        }
        #expect(seen.0.hasPrefix("citysim test"), "not a thread of Swift's cooperative pool: \(seen.0)")
        #if os(Linux)
        #expect(seen.1 >= BackgroundWork.niceness, "the work's nice value: \(seen.1)")
        #endif
        #expect(BackgroundWork.currentNiceness() == before, "only the work's thread is lowered")
    }

    @Test func whatTheWorkReturnsOrThrowsComesBack() async throws {
        #expect(try await BackgroundWork.run("citysim test") { 6 * 7 } == 42)
        await #expect(throws: Refused.self) { try await BackgroundWork.run("citysim test") { () throws -> Int in throw Refused() } }
    }
}
