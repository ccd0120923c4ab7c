import Foundation

/// The simulator's two records of the zone queues kept on a helper thread: the drivers' stints
/// (`QueueStints`, for `fairness.by_shift_zone`) and the check of their order (`QueueOrderCheck`, D15). The
/// loop notes each join, place taken back, leave and offer in a block (32 bytes a note) and the helper
/// applies the blocks in order to both. The two are a pure record of those notes, so they come out as if
/// the loop had kept them itself (`HelperThreadTests`), and the loop no longer pays the cache misses on their
/// per-taxi and per-zone state: the stints' dominated the loop's cost before they moved here, and the order
/// check's walk of a zone's entries at every offer took ~3 % of megacity's loop after.
///
/// The loop fills a `Notes` value kept in its own storage, so a note costs an append and no retain of this
/// object (which the profile showed at ~5 % of the loop); it calls `send(_:)` when the block is full.
///
/// Invariant: the notes reach the records in the order the loop made them, an offer's excluded taxis in
/// the same block right after it; `finish(_:)` returns once all of them are applied, and no note may follow
/// it. The helper holds this object until it exits, so its owner calls `stop()` when the run is dropped
/// before `finish(_:)`.
final class QueueRecordsAside: @unchecked Sendable {
    fileprivate enum Note {
        /// The taxi joins the tail of `zone`'s queue.
        case join(taxi: Int32, zone: Int32, time: Double)
        /// The taxi takes back the place it got at `stamp` in `zone`'s queue.
        case rejoin(taxi: Int32, zone: Int32, stamp: Int, time: Double)
        /// The taxi leaves its queue: by an offer (`dispatched`) or not (a shift's end, a move).
        case leave(taxi: Int32, dispatched: Bool, time: Double)
        /// An offer to `taxi` of a request from `zone`, the next `excluded` notes naming the taxis the
        /// request may no longer go to.
        case offer(taxi: Int32, zone: Int32, counts: Bool, excluded: Int32)
        case excluded(taxi: Int32)
    }

    /// The block of notes the loop is filling. Invariant: at most `blockSize` notes before an offer's
    /// group (sent when full, before the next note or group).
    struct Notes {
        fileprivate var block: [Note] = []

        /// Whether the block must be sent before the next note.
        var isFull: Bool { block.count >= QueueRecordsAside.blockSize }

        /// `QueueStints.join` and `QueueOrderCheck.joinTail`, applied on the helper.
        mutating func join(_ taxi: Int32, zone: Int, at time: Double) {
            block.append(.join(taxi: taxi, zone: Int32(zone), time: time))
        }

        /// `QueueStints.join` and `QueueOrderCheck.rejoin`, applied on the helper.
        mutating func rejoin(_ taxi: Int32, zone: Int, stamp: Int, at time: Double) {
            block.append(.rejoin(taxi: taxi, zone: Int32(zone), stamp: stamp, time: time))
        }

        /// `QueueStints.leave` and `QueueOrderCheck.leave`, applied on the helper.
        mutating func leave(_ taxi: Int32, at time: Double, dispatched: Bool) {
            block.append(.leave(taxi: taxi, dispatched: dispatched, time: time))
        }

        /// `QueueOrderCheck.checkOffer`, applied on the helper.
        mutating func offer(to taxi: Int32, zone: Int, excluded: [Int32], counts: Bool) {
            block.append(.offer(taxi: taxi, zone: Int32(zone), counts: counts, excluded: Int32(excluded.count)))
            for other in excluded { block.append(.excluded(taxi: other)) }
        }
    }

    static let blockSize = 8_192
    /// The helper thread's name (`ThreadName`).
    static let threadName = "citysim-queues"

    private let channel = BlockChannel<Note>(capacity: 8, blockSize: blockSize)
    /// The helper's until it exits; `finish(_:)` reads them after.
    private var stints: QueueStints
    private var order: QueueOrderCheck
    private let exited = DispatchSemaphore(value: 0)

    /// Starts the helper; `notes` is the loop's first (empty) block.
    init(_ stints: QueueStints, _ order: QueueOrderCheck, notes: inout Notes) {
        self.stints = stints
        self.order = order
        notes.block = channel.emptyBlock()
        let thread = Thread { [self] in
            ThreadName.setCurrent(Self.threadName)
            apply()
        }
        thread.start()
    }

    /// Hands the loop's full block to the helper and gives it an empty one.
    func send(_ notes: inout Notes) { channel.send(&notes.block) }

    /// Every note applied: the two records as they stand.
    func finish(_ notes: inout Notes) -> (stints: QueueStints, order: QueueOrderCheck) {
        channel.send(&notes.block)
        channel.finish()
        exited.wait()
        defer {  // the caller's copies are then the only ones
            stints = QueueStints(drivers: [], window: (0, 0))
            order = QueueOrderCheck(zones: 0)
        }
        return (stints, order)
    }

    /// The run failed or was dropped: the helper applies the blocks already sent (not the one being filled)
    /// and exits.
    func stop() { channel.close() }

    /// Whether the helper thread has exited, waiting up to `timeout` for it (tests).
    func helperExited(within timeout: DispatchTimeInterval) -> Bool {
        guard exited.wait(timeout: .now() + timeout) == .success else { return false }
        exited.signal()  // still exited for a later `finish` or ask
        return true
    }

    /// The helper: applies the blocks in order until the loop finishes or the run is dropped.
    private func apply() {
        var used: [Note] = []
        var excluded: [Int32] = []
        while let notes = channel.receive(returning: &used) {
            var i = 0
            while i < notes.count {
                switch notes[i] {
                case .join(let taxi, let zone, let time):
                    stints.join(taxi, zone: Int(zone), at: time)
                    order.joinTail(taxi, zone: Int(zone))
                case .rejoin(let taxi, let zone, let stamp, let time):
                    stints.join(taxi, zone: Int(zone), at: time)
                    order.rejoin(taxi, zone: Int(zone), stamp: stamp)
                case .leave(let taxi, let dispatched, let time):
                    stints.leave(taxi, at: time, dispatched: dispatched)
                    order.leave(taxi)
                case .offer(let taxi, let zone, let counts, let count):
                    excluded.removeAll(keepingCapacity: true)
                    for k in 0..<Int(count) {
                        guard case .excluded(let other) = notes[i + 1 + k] else { preconditionFailure("an offer's excluded taxi is missing") }
                        excluded.append(other)
                    }
                    order.checkOffer(to: taxi, zone: Int(zone), excluded: excluded, counts: counts)
                    i += Int(count)
                case .excluded:
                    preconditionFailure("an excluded taxi noted without its offer")
                }
                i += 1
            }
            used = notes
        }
        exited.signal()
    }
}
