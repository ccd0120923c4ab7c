import Testing
@testable import CitySim

/// D15 as the simulator checks it from its own record of the queues (`QueueOrderCheck`), and the places that
/// record keeps for each taxi (`QueuePlace`), which the loop keeps as well when the check runs on a helper thread.
struct QueueOrderCheckTests {
    @Test func aTaxiGivenBackItsPlaceIsAheadOfTheTaxisThatJoinedAfterIt() {
        var check = QueueOrderCheck(zones: 2)
        for _ in 0..<3 { check.addTaxi() }
        check.joinTail(0, zone: 1)
        check.joinTail(1, zone: 1)
        check.checkOffer(to: 0, zone: 1, excluded: [], counts: true)  // the longest waiting: right
        check.leave(0)
        // Taxi 1 is the longest waiting now: right, and the check passes over taxi 0's old entry for good.
        check.checkOffer(to: 1, zone: 1, excluded: [], counts: true)
        check.joinTail(2, zone: 1)
        check.rejoin(0, zone: 1, stamp: 1)  // the offer to taxi 0 was withdrawn: it is first again
        check.checkOffer(to: 1, zone: 1, excluded: [], counts: true)  // skips taxi 0
        #expect(check.offersChecked == 3 && check.violations == 1)
        check.checkOffer(to: 1, zone: 1, excluded: [0], counts: true)  // taxi 0 may not take it: right
        check.checkOffer(to: 2, zone: 1, excluded: [0], counts: false)  // outside the window: not counted
        check.checkOffer(to: 2, zone: 0, excluded: [], counts: true)  // an empty queue: nothing to check
        #expect(check.offersChecked == 4 && check.violations == 1)
    }

    @Test func aPlaceTakenBackKeepsItsOldStampWhateverTheTaxiDidSince() {
        var stamps = QueueStamps()
        var taxi = QueuePlace(), other = QueuePlace()
        let first = taxi.joinTail(3, stamps: &stamps)
        #expect(taxi.queuedZone == 3 && taxi.stamp == first && taxi.holds(zone: 3, stamp: first))
        let second = other.joinTail(3, stamps: &stamps)
        taxi.leave()
        #expect(taxi.queuedZone == nil && !taxi.holds(zone: 3, stamp: first))
        let third = taxi.joinTail(2, stamps: &stamps)  // a later join elsewhere takes a newer stamp
        #expect(first < second && second < third && stamps.last == third)
        taxi.rejoin(3, stamp: first)
        #expect(taxi.queuedZone == 3 && taxi.stamp == first)
        #expect(taxi.holds(zone: 3, stamp: first) && !taxi.holds(zone: 2, stamp: third))
    }
}
