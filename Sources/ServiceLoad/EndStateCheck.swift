/// The comparison of what the load client was told with what the service holds after
/// the run: no acknowledged ride may be missing, none the client saw finished may be in
/// another state, and the dispatch core's invariants must hold.
///
/// The service's retention (`archive_retain_days`) deletes archived rides: its pages no longer list
/// them, but its `total` (the sum of its `counts`) still counts them. So acknowledged rides missing from the pages are lost only when
/// there are more of them than rides the service counts but no longer lists (`deletedByRetention`);
/// a count cannot tell which ones, so then all of them are reported. Without deletions that is 0 and
/// every missing ride is lost.
///
/// Invariant: `holds` is true exactly when `lost`, `changedFinished` and
/// `invariantViolations` are all empty; `lost` is empty or equals `missing`, and it is empty exactly
/// when `missing.count <= deletedByRetention`.
///
/// ```swift
/// let check = EndStateCheck(acknowledged: rides.rides, server: state)
/// print(check.summary)    // "nothing lost, invariants hold" or the differences
/// ```
public struct EndStateCheck: Sendable, Equatable {
    /// States a ride never leaves.
    public static let finished: Set<String> = ["completed", "rejected", "cancelled", "expired"]

    /// Acknowledged ids the service does not know, when they are more than its retention deleted; else empty.
    public var lost: [Int]
    /// Acknowledged ids the service's pages do not list (lost, or deleted by its retention).
    public var missing: [Int]
    /// Rides the service counts but its pages no longer list: the archived rides its retention deleted.
    public var deletedByRetention: Int
    /// Ids the client saw finished whose state on the service differs: (id, client saw, service has).
    public var changedFinished: [Changed]
    /// The core's invariant violations, and logged commands the core refused on replay.
    public var invariantViolations: [String]
    /// Ids the service holds that the client never saw acknowledged (answers lost in flight: not an error).
    public var unacknowledged: Int
    public var acknowledged: Int
    public var serverRides: Int

    /// A ride the client saw finished that the service holds in another state.
    public struct Changed: Sendable, Equatable {
        public var id: Int
        public var clientSaw: String
        public var serverHas: String
    }

    public init(acknowledged: [Int: String], server: WireServiceState) {
        var states: [Int: String] = [:]
        for ride in server.rides { states[ride.id] = ride.status }
        missing = acknowledged.keys.filter { states[$0] == nil }.sorted()
        deletedByRetention = max(0, server.total - states.count)
        lost = missing.count > deletedByRetention ? missing : []
        changedFinished = acknowledged.compactMap { id, saw in
            guard Self.finished.contains(saw), let has = states[id], has != saw else { return nil }
            return Changed(id: id, clientSaw: saw, serverHas: has)
        }.sorted { $0.id < $1.id }
        invariantViolations = server.invariantViolations
        if server.replayRefusals > 0 {  // after a restart the log must replay exactly
            invariantViolations.append("\(server.replayRefusals) logged commands refused on replay")
        }
        unacknowledged = states.keys.filter { acknowledged[$0] == nil }.count
        self.acknowledged = acknowledged.count
        serverRides = states.count
    }

    public var holds: Bool { lost.isEmpty && changedFinished.isEmpty && invariantViolations.isEmpty }

    /// One line when all is well, else the differences (the first few of each kind).
    public var summary: String {
        var counts = "\(acknowledged) acknowledged, \(serverRides) on the server (\(unacknowledged) never acknowledged to the client)"
        if deletedByRetention > 0 { counts += ", \(deletedByRetention) deleted by the service's retention" }
        if holds { return "nothing lost, invariants hold: \(counts)" }
        var lines = ["END STATE DIFFERS: \(counts)"]
        if !lost.isEmpty {
            lines.append("  lost: \(lost.count) acknowledged rides missing"
                         + (deletedByRetention > 0 ? " (more than the \(deletedByRetention) deleted)" : "")
                         + ", e.g. \(lost.prefix(10).map(String.init).joined(separator: ", "))")
        }
        for change in changedFinished.prefix(10) {
            lines.append("  ride \(change.id): client saw \(change.clientSaw), server has \(change.serverHas)")
        }
        if changedFinished.count > 10 { lines.append("  … \(changedFinished.count - 10) more changed") }
        for violation in invariantViolations.prefix(10) { lines.append("  invariant: \(violation)") }
        return lines.joined(separator: "\n")
    }
}
