import Foundation
import Testing
import TestSupport
@testable import DispatchCore

/// D12's open-request table against the `Dictionary` it replaces.
@Suite("Open-request table (D12)")
struct OpenRequestTableTests {
    @Test("any sequence of filings, refilings and strikings leaves the table answering as a dictionary would",
          arguments: [1, 2, 3])
    func randomOperationsAgreeWithADictionary(seed: UInt64) {
        var table = OpenRequestTable()
        Self.agreesWithADictionary(&table, seed: seed)
    }

    @Test("with a dense range of ids the table still answers as a dictionary would, for ids and requests in and out of it",
          arguments: [1, 2, 3])
    func denseRangeAgreesWithADictionary(seed: UInt64) {
        var table = OpenRequestTable()
        table.reserveDense(customers: 600_000)  // about half the universe; requests that do not fit a slot stay hashed
        Self.agreesWithADictionary(&table, seed: seed, oddRequests: true) { table, model in
            // The count of hashed customers of the range is exact (an excess would only cost probes).
            let hashed = model.filter { (0..<600_000).contains($0.key.rawValue) && !(0...Int(Int32.max)).contains($0.value.rawValue) }
            #expect(table.hashedInDenseRange == hashed.count)
        }
    }

    /// Files and strikes off customers of a small universe in long runs (by setting nil, or as their request
    /// ends: `strikeOff`, with the open request or another), checking `table` against a dictionary;
    /// `oddRequests` adds requests that do not fit a 32-bit slot (negative, or above `Int32.max`).
    private static func agreesWithADictionary(_ table: inout OpenRequestTable, seed: UInt64, oddRequests: Bool = false,
                                              check: (OpenRequestTable, [CustomerID: RequestID]) -> Void = { _, _ in }) {
        var mix = SplitMix64(seed: seed)
        func below(_ n: Int) -> Int { Int(mix.next() % UInt64(n)) }
        var model: [CustomerID: RequestID] = [:]
        let odd = [-1, -2, Int(Int32.max) + 1, Int.max, Int.min]
        // Few distinct customers and long runs of each operation: clusters form, grow and are broken up
        // by removals, which is where backward shift can go wrong.
        let universe = [0, 1, 2, 3, 7, 8, 15, 16, -1, -8, Int.min, Int.max] + (0..<300).map { $0 * 4_096 }
        for step in 0..<40_000 {
            let customer = CustomerID(universe[below(universe.count)])
            let phase = (step / 2_000) % 3  // mostly adding, mixed, mostly removing
            let removes = below(10) < [2, 5, 8][phase]
            if removes, below(2) == 0 {
                table[customer] = nil
                model[customer] = nil
            } else if removes {
                // A request that ends strikes its customer off only if it is the customer's open one.
                let ending = model[customer] != nil && below(3) > 0 ? model[customer]! : RequestID(below(1_000_000))
                table.strikeOff(customer, ifFiledAs: ending)
                if model[customer] == ending { model[customer] = nil }
            } else {
                let request = RequestID(oddRequests && below(4) == 0 ? odd[below(odd.count)] : below(1_000_000))
                table[customer] = request
                model[customer] = request
            }
            if step % 97 == 0 {
                #expect(table.count == model.count, "step \(step)")
                check(table, model)
                for candidate in universe.map(CustomerID.init) where table[candidate] != model[candidate] {
                    Issue.record("step \(step): \(candidate) -> \(String(describing: table[candidate])), expected \(String(describing: model[candidate]))")
                    return
                }
            }
        }
        #expect(table.dictionary == model)
        #expect(model.count > 10, "the run ends with customers filed")
    }

    @Test("two tables with the same pairs filed in different orders are equal; a different request is not")
    func equalityIsOfPairsNotLayout() {
        let customers = (0..<100).map { CustomerID($0 * 8) }
        var forward = OpenRequestTable(), backward = OpenRequestTable()
        for c in customers { forward[c] = RequestID(c.rawValue + 1) }
        for c in customers.reversed() { backward[c] = RequestID(c.rawValue + 1) }
        // Filed and struck off again: the same pairs in a table that grew further.
        for extra in 1_000..<1_400 { backward[CustomerID(extra)] = RequestID(0) }
        for extra in 1_000..<1_400 { backward[CustomerID(extra)] = nil }
        #expect(forward == backward)
        backward[customers[5]] = RequestID(-7)
        #expect(forward != backward)
    }

    @Test("a table filing ids in an array equals, and is encoded as, one hashing the same pairs")
    func denseLayoutIsInvisible() throws {
        var hashed = OpenRequestTable(), dense = OpenRequestTable()
        dense.reserveDense(customers: 64)
        let pairs = [(3, 7), (63, 1), (64, 2), (-5, 9), (10, -4), (11, Int(Int32.max) + 5)]
        for (c, r) in pairs {
            hashed[CustomerID(c)] = RequestID(r)
            dense[CustomerID(c)] = RequestID(r)
        }
        #expect(dense == hashed)
        #expect(dense.count == pairs.count)
        #expect(dense.dictionary == hashed.dictionary)
        let decoded = try JSONDecoder().decode([CustomerID: RequestID].self, from: JSONEncoder().encode(dense))
        #expect(decoded == hashed.dictionary)
        // A customer of the range whose request did not fit a slot gets one that does, then is struck off.
        dense[CustomerID(10)] = RequestID(12)
        #expect(dense[CustomerID(10)] == RequestID(12))
        dense[CustomerID(10)] = nil
        #expect(dense[CustomerID(10)] == nil)
        #expect(dense.count == pairs.count - 1)
    }

    @Test("a table is encoded exactly as the dictionary of its pairs, and decodes back")
    func encodingIsTheDictionarys() throws {
        var table = OpenRequestTable()
        for c in 0..<50 { table[CustomerID(c * 3)] = RequestID(c) }
        let pairs = table.dictionary
        let decoded = try JSONDecoder().decode(OpenRequestTable.self, from: JSONEncoder().encode(table))
        #expect(decoded == table)
        let asDictionary = try JSONDecoder().decode([CustomerID: RequestID].self, from: JSONEncoder().encode(table))
        #expect(asDictionary == pairs)
    }
}
