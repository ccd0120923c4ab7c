import Foundation

/// The zone-queue stints (`QueueStints`, for `fairness.by_shift_zone`) summed on a helper thread: the loop
/// notes each join and leave in a block (16 bytes a note) and the helper applies the blocks in order to
/// its `QueueStints`. The stints are a pure record of those notes, so they come out as if the loop had
/// applied them itself (`HelperThreadTests`), and the loop no longer pays the cache misses on per-taxi
/// stint state that dominated its cost.
///
/// The loop fills a `Notes` value kept in its own storage, so a note costs an append and no retain of this
/// object (which the profile showed at ~5 % of the loop); it calls `send(_:)` when the block is full.
///
/// Invariant: the notes reach the stints in the order the loop made them; `finish(_:)` returns once all of
/// them are applied, and no note may follow it. The helper holds this object until it exits, so its owner
/// calls `stop()` when the run is dropped before `finish(_:)`.
final class StintsAside: @unchecked Sendable {
    /// A join of `zone`'s queue (`what` ≥ 0), or a leave, dispatched (-2) or not (-1).
    fileprivate struct Note {
        let taxi: Int32
        let what: Int32
        let time: Double
    }

    /// The block of notes the loop is filling. Invariant: at most `blockSize` notes (sent when full, before the next).
    struct Notes {
        fileprivate var block: [Note] = []

        /// Whether the block must be sent before the next note.
        var isFull: Bool { block.count >= StintsAside.blockSize }

        /// `QueueStints.join`, applied on the helper.
        mutating func join(_ taxi: Int32, zone: Int, at time: Double) {
            block.append(Note(taxi: taxi, what: Int32(zone), time: time))
        }

        /// `QueueStints.leave`, applied on the helper.
        mutating func leave(_ taxi: Int32, at time: Double, dispatched: Bool) {
            block.append(Note(taxi: taxi, what: dispatched ? -2 : -1, time: time))
        }
    }

    static let blockSize = 8_192
    /// The helper thread's name (`ThreadName`).
    static let threadName = "citysim-stints"

    private let channel = BlockChannel<Note>(capacity: 8, blockSize: blockSize)
    /// The helper's until it exits; `finish(_:)` reads it after.
    private var stints: QueueStints
    private let exited = DispatchSemaphore(value: 0)

    /// Starts the helper; `notes` is the loop's first (empty) block.
    init(_ stints: QueueStints, notes: inout Notes) {
        self.stints = stints
        notes.block = channel.emptyBlock()
        let thread = Thread { [self] in
            ThreadName.setCurrent(Self.threadName)
            apply()
        }
        thread.start()
    }

    /// Hands the loop's full block to the helper and gives it an empty one.
    func send(_ notes: inout Notes) { channel.send(&notes.block) }

    /// Every note applied: the stints as they stand.
    func finish(_ notes: inout Notes) -> QueueStints {
        channel.send(&notes.block)
        channel.finish()
        exited.wait()
        defer { stints = QueueStints(drivers: [], window: (0, 0)) }  // the caller's copy is then the only one
        return stints
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
        while let notes = channel.receive(returning: &used) {
            for note in notes {
                if note.what >= 0 {
                    stints.join(note.taxi, zone: Int(note.what), at: note.time)
                } else {
                    stints.leave(note.taxi, at: note.time, dispatched: note.what == -2)
                }
            }
            used = notes
        }
        exited.signal()
    }
}
