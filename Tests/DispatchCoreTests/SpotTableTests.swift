import Testing
@testable import DispatchCore

// MARK: - The taxi index's spot table (AvailableTaxiIndex: taxis at one exact position form one spot)

@Test func firstOrStartStartsASpotOnceThenNamesItsFirstTaxi() {
    var spots = SpotTable()
    let rank = Position(x: 1200, y: 850)
    #expect(spots.firstOrStart(5, at: rank) == nil)  // no spot there: taxi 5 starts it
    #expect(spots.count == 1)
    #expect(spots.firstOrStart(7, at: rank) == 5)  // taxi 7 joins taxi 5's spot; the table is unchanged
    #expect(spots.count == 1)
    #expect(spots.first(at: rank) == 5)
    #expect(spots.firstOrStart(9, at: Position(x: -0.0, y: 0)) == nil)
    #expect(spots.firstOrStart(11, at: Position(x: 0, y: 0)) == 9)  // -0 and +0 are one place
}

@Test func spotTableAgreesWithADictionaryThroughGrowthAndDeletions() {
    // Positions on a coarse lattice, so the same ones come back; enough of them to double the buckets
    // several times and to make probe runs that deletion must shift back.
    var spots = SpotTable()
    var reference: [Position: Int32] = [:]
    var random = SplitMix(seed: 42)
    for step in 0 ..< 20_000 {
        let position = Position(x: Double(random.next() % 60) * 25, y: Double(random.next() % 60) * 25)
        let taxi = Int32(step)
        switch random.next() % 3 {
        case 0 where reference[position] != nil:
            spots.remove(at: position)
            reference[position] = nil
        case 1:
            spots.setFirst(taxi, at: position)
            reference[position] = taxi
        default:
            let first = spots.firstOrStart(taxi, at: position)
            #expect(first == reference[position])
            if first == nil { reference[position] = taxi }
        }
        if step % 997 == 0 {
            #expect(spots.count == reference.count)
            for (place, first) in reference { #expect(spots.first(at: place) == first) }
        }
    }
    #expect(spots.count == reference.count)
    for x in 0 ..< 60 {
        for y in 0 ..< 60 {
            let place = Position(x: Double(x) * 25, y: Double(y) * 25)
            #expect(spots.first(at: place) == reference[place])
        }
    }
}

/// A small deterministic generator for the test above.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
