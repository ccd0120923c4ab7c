import DispatchCore
@testable import CitySim
@testable import EventEngine
import Testing

/// The event heap's entries stay small: sifting the heap is the simulation loop's largest single cost
/// (`Results/bench/speed.md`), and its cache misses grow with the entry size.
@Suite struct EventLayoutTests {
    @Test func aPendingSimulationEventTakes32BytesInTheHeap() {
        #expect(MemoryLayout<EventKey>.size == 16)
        #expect(MemoryLayout<SimEvent>.size <= 16)
        #expect(MemoryLayout<EventQueue<SimEvent>.Entry>.stride == 32)
    }

    @Test func eventRequestsAndTimersComeBackAsTheyWent() {
        let timer = TimerID(kind: .reservationAllocation, request: RequestID(1_999_999), generation: 7)
        #expect(EventTimer(timer).timer == timer)
        let batch = TimerID(kind: .batchEpoch, request: RequestID(-1), generation: .max)
        #expect(EventTimer(batch).timer == batch)
        #expect(EventRequest(RequestID(123_456)).id == RequestID(123_456))
    }
}
