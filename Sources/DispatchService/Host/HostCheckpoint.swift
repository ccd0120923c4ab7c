import Crypto
import DispatchCore
import Foundation

/// What the host must hold to carry on from command `sequence` without replaying the commands up
/// to it: the core's snapshot, the city when `setCity` changed it, the ride ledger and the pending
/// timers. Stored by `CheckpointStore` as bytes (`encoded()`):
///
///     "CSIMCKPT" · format version (UInt32, big-endian) · SHA-256 of the payload (32 bytes) · payload
///
/// The payload is this value in `CompactBinaryEncoder`'s form (about 250 bytes per ride held; JSON was
/// 850 and `JSONEncoder` needed gigabytes of memory for a large state).
///
/// Invariant: `decode(StoredCheckpoint(sequence, encoded()), …)` gives back an equal checkpoint, and any
/// other bytes (another format version, a flipped bit, a cut-off row) are refused with a
/// `CheckpointError` naming the store and the reason, never decoded into a wrong state.
struct HostCheckpoint: Sendable, Equatable, Codable {
    /// The format version this build writes and reads. 2: the taxi index keeps the city's size and its
    /// own cell side, which halves as the fleet grows (version 1's index had fixed cells).
    static let formatVersion: UInt32 = 2
    static let magic = Array("CSIMCKPT".utf8)
    static let headerSize = magic.count + 4 + 32

    /// The last command the state includes.
    var sequence: Int64
    var core: DispatchCore.Snapshot
    /// The city as a logged `setCity` command (`CommandCoding`) when it differs from the configured one.
    var city: String?
    var ledger: RideLedger
    var timers: TimerQueue

    /// The earliest end of a ride that a restart from this checkpoint can hold in memory: the ended rides
    /// it holds, and every ride that ends after it (at or after its core time). The archive's retention
    /// deletes only rides that ended before this, so a restart never holds (and archives and counts
    /// again) a ride the archive has deleted.
    var restorableFrom: Double { min(core.time, ledger.oldestEnd ?? .infinity) }

    /// The bytes to store.
    func encoded() throws -> [UInt8] {
        var bytes = try CompactBinaryEncoder().encode(self, reservingCapacity: 256 * (ledger.rides.count + 1024))
        let digest = Array(SHA256.hash(data: bytes))
        var header = Self.magic
        withUnsafeBytes(of: Self.formatVersion.bigEndian) { header += $0 }
        bytes.insert(contentsOf: header + digest, at: 0)
        return bytes
    }

    /// The checkpoint a stored one holds.
    /// - Parameter store: the store's name for the error (`sqlite`, `postgresql`, …).
    /// - Throws: `CheckpointError` when the bytes are not a checkpoint of this format, are corrupted,
    ///   or name another sequence than the row.
    static func decode(_ stored: StoredCheckpoint, store: String) throws -> HostCheckpoint {
        func fail(_ reason: String) -> CheckpointError { CheckpointError(store: store, sequence: stored.sequence, reason: reason) }
        let bytes = stored.bytes
        guard bytes.count >= headerSize, Array(bytes[0..<magic.count]) == magic else {
            throw fail("not a citysim checkpoint (\(bytes.count) bytes without the CSIMCKPT header)")
        }
        let version = bytes[magic.count..<magic.count + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard version == formatVersion else {
            throw fail(version > formatVersion
                ? "format version \(version) is newer than this build reads (\(formatVersion)); run the newer citysim"
                : "format version \(version) is not one this build reads (\(formatVersion))")
        }
        let payload = Array(bytes[headerSize...])
        guard Array(SHA256.hash(data: payload)) == Array(bytes[magic.count + 4..<headerSize]) else {
            throw fail("corrupted: the payload's SHA-256 does not match the header")
        }
        let checkpoint: HostCheckpoint
        do { checkpoint = try CompactBinaryDecoder().decode(HostCheckpoint.self, from: payload) } catch {
            throw fail("corrupted: the payload does not decode (\(error))")
        }
        guard checkpoint.sequence == stored.sequence else {
            throw fail("the payload is of sequence \(checkpoint.sequence)")
        }
        return checkpoint
    }

    /// The core this checkpoint describes, configured as `configured` (a fresh core of the scenario).
    /// - Throws: `CheckpointError` when the snapshot does not fit the city or breaks the core's invariants.
    func restoreCore(configuredAs configured: DispatchCore, store: String) throws -> DispatchCore {
        func fail(_ reason: String) -> CheckpointError { CheckpointError(store: store, sequence: sequence, reason: reason) }
        var city = configured.city
        if let setCity = self.city {
            guard case .setCity(let set)? = try? CommandCoding.decode(setCity) else { throw fail("its city does not decode") }
            city = set
        }
        let restored: DispatchCore
        do {
            restored = try DispatchCore(restoring: core, city: city, travel: configured.travel,
                                        policy: configured.policy, rules: configured.rules)
        } catch { throw fail("\(error)") }
        let problems = restored.invariantViolations()
        guard problems.isEmpty else {
            throw fail("its core breaks \(problems.count) invariants, first: \(problems[0])")
        }
        return restored
    }
}

/// A stored checkpoint that cannot be used: which store, which checkpoint, why. The service does not
/// start on it (rather than start from a wrong state); the operator can move the row aside
/// (`DELETE FROM checkpoint WHERE sequence = N`) only if the log before it is still stored.
public struct CheckpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store's engine (`sqlite`, `postgresql`, `memory`).
    public var store: String
    public var sequence: Int64
    public var reason: String

    public var description: String { "the \(store) store's checkpoint at command \(sequence) cannot be used: \(reason)" }
}
