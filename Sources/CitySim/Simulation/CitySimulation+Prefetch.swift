import CacheHint
import DispatchCore

extension CitySimulation {
    /// Taxis from which the loop prefetches: about where a fleet's records (the simulator's 264 bytes and
    /// the core's 72 per taxi) outgrow a core's 1 MiB L2 cache here. Below it the records stay in cache and
    /// the prefetches only cost instructions (+5 % on the benchmark gate's 30-taxi smoke run); the grid
    /// city's 2,000 taxis showed no gain. Megacity's 50,000 went from 7.20 to 6.68 s with the simulator's
    /// records prefetched and from 6.61 to 6.00 s with the core's too (Results/bench/pairs-s27.txt).
    static let prefetchFleetFloor = 4_096

    /// Starts loading the records the event `next` will read, while the loop handles the one before it.
    ///
    /// At megacity's scale (50,000 taxis, 2 million requests) the driver's and the ride's records are
    /// seldom in cache when their event comes: each handler's first read of them waited for memory (most
    /// of `handle`'s and `reachDestination`'s samples, perf). Asked for one event ahead, the loads overlap
    /// with the handling of the current event. A hint only: nothing is read or changed, and an event that
    /// does not come next (an earlier one is scheduled meanwhile) only wastes the loads.
    @inline(__always)
    func prefetchRecords(of next: SimEvent) {
        switch next {
        case .answer(let driver, let request, _, _), .reachesPickup(let driver, let request, _):
            prefetchRecords(driver: driver, request: request)
        case .reachesDestination(let driver, let request):
            prefetchRecords(driver: driver, request: request, takesIndexSlot: true)
        case .turnsAvailable(let driver, _), .driftArrives(let driver, _):
            prefetchRecords(driver: driver, request: nil, takesIndexSlot: true)
        default:
            break
        }
    }

    /// The event queue has just moved its next bucket into its heap: starts loading the core's directory entry
    /// of each request those events name, so that `prefetchRecords`, one event ahead, finds it in cache when it
    /// reads it to load the request's record.
    ///
    /// The requests are gathered into `refillRequests` and handed to the core in one call; the heap is read by
    /// index. A look through a closure capturing `self` made Swift copy the whole event queue (its seven arrays
    /// retained and released) at every refill, and one core call per request cost ~43 instructions (together
    /// 1.8 % of city-scale's loop, callgrind).
    func prefetchDirectoryEntries() {
        seenRefills = events.refills
        let heapCount = events.heapCount
        if refillRequests.count < heapCount {
            refillRequests = Array(repeating: 0, count: max(heapCount, 2 * refillRequests.count))
        }
        refillRequests.withUnsafeMutableBufferPointer { buffer in
            var count = 0
            for index in 0 ..< heapCount {
                switch events.heapPayload(at: index) {
                case .answer(_, let request, _, _), .reachesPickup(_, let request, _), .reachesDestination(_, let request):
                    buffer[count] = request.raw
                    count += 1
                default:
                    break
                }
            }
            core.prefetchDirectoryEntries(of: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The driver's records, the simulator's and the core's, and the request's, the simulator's and the core's.
    @inline(__always)
    private func prefetchRecords(driver: Int32, request: EventRequest?, takesIndexSlot: Bool = false) {
        drivers.prefetchElement(Int(driver))
        if let request { rides.records.prefetch(Int(request.raw)) }
        core.prefetchRecords(driver: DriverID(Int(driver)), request: request.map { RequestID(Int($0.raw)) },
                             takesIndexSlot: takesIndexSlot)
    }
}
