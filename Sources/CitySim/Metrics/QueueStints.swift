/// The drivers' side of every zone queue, for `fairness.by_shift_zone`: each stint a taxi spends in one
/// zone's queue, from joining it (D2: turning available, moving zone, a D4/D5 requeue, or taking back its
/// place after an offer was withdrawn) to leaving it, and how it ended: by an offer — a dispatch from
/// that queue — or otherwise (shift end, moving to another zone, the horizon), which censors the wait.
///
/// Fed by the simulator from the same observations as `QueueOrderCheck`, never from the core's queues.
/// Only stints begun in the measurement window are kept; which driver-shift a stint belongs to, and
/// whether that shift lies wholly in the window, is decided when the figures are built.
///
/// Invariant: a taxi has at most one open stint; every kept stint has `seconds >= 0` and began at or
/// after the window's start; open stints are closed, censored, at the horizon by `stints(closingAt:)`.
struct QueueStints {
    /// One finished stint in one zone's queue.
    struct Stint {
        let taxi: Int32
        let zone: Int32
        let start: Double
        let seconds: Double
        /// Ended by an offer (a dispatch from this queue); otherwise censored.
        let dispatched: Bool
    }

    /// Stints begun at or after this time are kept (the window's start, seconds).
    let windowStart: Double
    /// Per taxi: the zone of its open stint (-1: none) and when it began.
    private var openZone: [Int32] = []
    private var openSince: [Double] = []
    private(set) var finished: [Stint] = []

    init(windowStart: Double) { self.windowStart = windowStart }

    /// The taxi joins `zone`'s queue at `time`; an open stint in another queue ends there, censored.
    mutating func join(_ taxi: Int32, zone: Int, at time: Double) {
        let t = Int(taxi)
        while openZone.count <= t {
            openZone.append(-1)
            openSince.append(0)
        }
        if openZone[t] == Int32(zone) { return }  // still in that queue: the stint goes on
        leave(taxi, at: time, dispatched: false)
        openZone[t] = Int32(zone)
        openSince[t] = time
    }

    /// The taxi leaves its queue at `time`: `dispatched` when an offer took it out.
    mutating func leave(_ taxi: Int32, at time: Double, dispatched: Bool) {
        let t = Int(taxi)
        guard t < openZone.count, openZone[t] >= 0 else { return }
        if openSince[t] >= windowStart {
            finished.append(Stint(taxi: taxi, zone: openZone[t], start: openSince[t], seconds: time - openSince[t],
                                  dispatched: dispatched))
        }
        openZone[t] = -1
    }

    /// Every kept stint, the ones still open closed at `horizon` (censored).
    func stints(closingAt horizon: Double) -> [Stint] { finished + openStints(closingAt: horizon) }

    /// The stints still open, closed at `horizon` (censored): at most one per taxi.
    func openStints(closingAt horizon: Double) -> [Stint] {
        openZone.indices.filter { openZone[$0] >= 0 && openSince[$0] >= windowStart }.map { t in
            Stint(taxi: Int32(t), zone: openZone[t], start: openSince[t], seconds: horizon - openSince[t], dispatched: false)
        }
    }
}
