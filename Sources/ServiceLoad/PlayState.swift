import CitySim
import Synchronization

/// The rides this run's customers were granted, with where they go, so the drivers
/// (who see only a ride id in `GET /v1/driver`) know where to drive.
///
/// Invariant: holds each acknowledged ride once, with its planned request.
final class RideBook: Sendable {
    private let rides = Mutex<[Int: PlannedRequest]>([:])
    func add(_ id: Int, _ request: PlannedRequest) { rides.withLock { $0[id] = request } }
    func request(_ id: Int) -> PlannedRequest? { rides.withLock { $0[id] } }
}

/// The signed-in customers not busy with an immediate ride (D12: one open request each).
///
/// Invariant: an index is either free or taken, never both; `take` prefers the scenario's
/// own customer index (modulo the pool) when it is free.
final class CustomerPool: Sendable {
    private let free: Mutex<(list: [Int], isFree: [Bool])>
    let customers: [SignedIn]

    init(_ customers: [SignedIn]) {
        self.customers = customers
        free = Mutex((Array(customers.indices.reversed()), Array(repeating: true, count: customers.count)))
    }

    func take(preferring wanted: Int) -> Int? {
        free.withLock { state in
            if wanted >= 0, !state.isFree.isEmpty, state.isFree[wanted % state.isFree.count] {
                let index = wanted % state.isFree.count
                state.isFree[index] = false
                state.list.removeAll { $0 == index }
                return index
            }
            while let index = state.list.popLast() {
                if state.isFree[index] {
                    state.isFree[index] = false
                    return index
                }
            }
            return nil
        }
    }

    func release(_ index: Int) {
        free.withLock { state in
            guard !state.isFree[index] else { return }
            state.isFree[index] = true
            state.list.append(index)
        }
    }
}

/// Named counts of what the load's customers and drivers did, for the report's notes.
///
/// Invariant: a count only grows.
public final class PlayCounters: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    func add(_ name: String, _ n: Int = 1) { counts.withLock { $0[name, default: 0] += n } }
    public var snapshot: [String: Int] { counts.withLock { $0 } }
}
