import DispatchCore
import Synchronization

/// Ride requests handed to `DispatchHost` from outside its isolation without a task each (`RideFastPath`, on an
/// event loop): `submit` appends under a lock, and one task on the host takes everything appended so far.
///
/// Invariants:
/// - Every submitted ride is taken exactly once, in submission order, by `takeAll` or `takeAllOrStop`.
/// - While rides wait here, a drainer is scheduled: `submit` reports that one must be started when none is
///   (`draining` is false), and a drainer stops only through `takeAllOrStop` finding nothing, which clears the
///   flag under the same lock. So no ride is left behind by a drainer that stopped just before it came.
final class RideInbox: Sendable {
    /// One ride request and where its answer goes.
    struct Ride: Sendable {
        var customer: CustomerID
        var origin: Position
        var destination: Position
        var patience: Double
        /// Called once, on the host, when the ride is durable (the ride as the host then holds it), refused by
        /// the core (`DispatchError`), or lost with a failed write (`HostError`). It must not block.
        var answer: @Sendable (Result<RideSnapshot, any Error>) -> Void
    }

    private struct State {
        var rides: [Ride] = []
        var draining = false
    }

    private let state = Mutex(State())

    /// Appends `ride`. Returns true when no drainer is scheduled: the caller must start one.
    func submit(_ ride: Ride) -> Bool {
        state.withLock { state in
            state.rides.append(ride)
            defer { state.draining = true }
            return !state.draining
        }
    }

    /// Everything submitted and not yet taken (possibly nothing).
    func takeAll() -> [Ride] {
        state.withLock { Self.take(&$0) }
    }

    /// For the drainer: everything submitted and not yet taken, or nil (and the drainer stops) when there is none.
    func takeAllOrStop() -> [Ride]? {
        state.withLock { state in
            guard !state.rides.isEmpty else {
                state.draining = false
                return nil
            }
            return Self.take(&state)
        }
    }

    /// The rides waiting, moved out (no copy of the array, none left behind).
    private static func take(_ state: inout State) -> [Ride] {
        var taken: [Ride] = []
        swap(&taken, &state.rides)
        return taken
    }
}
