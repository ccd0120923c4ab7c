/// A checkpoint as stored: the host's state after the command with sequence number `sequence`,
/// encoded by `HostCheckpoint` (the store only keeps the bytes).
public struct StoredCheckpoint: Sendable, Equatable {
    public var sequence: Int64
    public var bytes: [UInt8]

    public init(sequence: Int64, bytes: [UInt8]) {
        self.sequence = sequence
        self.bytes = bytes
    }
}

/// Checkpoints of the command log, so the log can be cut and a restart replays only its tail.
///
/// Contract (every `DispatchStore` is one): `saveCheckpoint` returns once the checkpoint is durable,
/// and it becomes visible in one transaction (a crash leaves it wholly stored or not there at all; SQLite
/// writes its bytes in parts first, which no checkpoint names until that transaction); `truncateLog(through:)` deletes
/// log rows with sequence ≤ the given one and every checkpoint older than it, in transactions that
/// each leave the store valid; `latestCheckpoint` is the one with the highest sequence. So at every
/// moment the newest checkpoint plus the log rows after it is the state: a crash between saving and
/// truncating leaves rows that the next start skips, and deletes them at its next checkpoint.
public protocol CheckpointStore: Sendable {
    /// Logged commands with sequence > `sequence`, sequence order.
    func commands(after sequence: Int64) async throws -> [LoggedCommand]
    /// Stores a checkpoint durably (replacing one with the same sequence).
    func saveCheckpoint(_ checkpoint: StoredCheckpoint) async throws
    /// The checkpoint with the highest sequence, or nil when none is stored.
    func latestCheckpoint() async throws -> StoredCheckpoint?
    /// Deletes the log rows with sequence ≤ `sequence` and the checkpoints older than `sequence`.
    func truncateLog(through sequence: Int64) async throws
}

extension CheckpointStore {
    /// Every logged command still stored, sequence order.
    public func commands() async throws -> [LoggedCommand] { try await commands(after: 0) }
}
