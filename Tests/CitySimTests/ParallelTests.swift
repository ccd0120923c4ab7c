import Foundation
import Testing
@testable import CitySim

@Suite("Work on other threads")
struct ParallelTests {
    struct Refusal: Error, Equatable { let code: Int }

    @Test("parallelMap returns the results in index order, whichever thread finished first")
    func parallelMapKeepsIndexOrder() throws {
        let squares = try parallelMap(40, jobs: 3) { i -> Int in
            if i % 7 == 0 { Thread.sleep(forTimeInterval: 0.002) }  // early indices finish late
            return i * i
        }
        #expect(squares == (0..<40).map { $0 * $0 })
    }

    @Test("an aside's value is what its body returned, once it has run, however often it is asked")
    func asideReturnsItsBodysValue() throws {
        let started = Date()
        let aside = Aside { () -> [Int] in
            Thread.sleep(forTimeInterval: 0.05)
            return Array(1...5)
        }
        #expect(try aside.value() == [1, 2, 3, 4, 5])
        #expect(Date().timeIntervalSince(started) >= 0.05)
        #expect(try aside.value() == [1, 2, 3, 4, 5])
    }

    @Test("an aside throws what its body threw, on every ask")
    func asideThrowsItsBodysError() {
        let aside = Aside { () throws -> Int in throw Refusal(code: 7) }
        #expect(throws: Refusal(code: 7)) { try aside.value() }
        #expect(throws: Refusal(code: 7)) { try aside.value() }
    }
}
