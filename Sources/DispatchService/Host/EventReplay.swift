import Foundation

/// Each subscribed party's latest events with their stream ids, so that a client reconnecting
/// with `Last-Event-ID` gets the events it missed (server-sent events' resume).
///
/// An id is `EPOCH.N`: `EPOCH` names this host instance (ids from before a restart are not
/// resumable, since the events of the restart's gap are not kept), `N` counts the party's
/// events from 1. Only parties that have subscribed at least once are kept, each with its last
/// `capacity` events, and at most `maximumParties` of them (the longest unused goes first).
///
/// Invariant: a party's kept events have consecutive `N`s ending at its latest; `missed(after:)`
/// answers the exact events after an id, or nil when they are no longer all kept.
struct EventReplay {
    static let capacity = 128
    static let maximumParties = 20_000

    private struct Log {
        var latest = 0
        var events: [ServiceEvent] = []
        var lastUse = 0
    }

    let epoch: String
    private var logs: [Party: Log] = [:]
    private var uses = 0

    init(epoch: String = String(UInt64(Date().timeIntervalSince1970 * 1000), radix: 36)) {
        self.epoch = epoch
    }

    var isEmpty: Bool { logs.isEmpty }

    /// Starts keeping the party's events (if not yet) and returns the id of its latest event.
    mutating func track(_ party: Party) -> String {
        uses += 1
        if logs[party] == nil, logs.count >= Self.maximumParties,
           let oldest = logs.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            logs[oldest] = nil
        }
        logs[party, default: Log()].lastUse = uses
        return id(logs[party]!.latest)
    }

    /// Numbers the event for the party and keeps it, if the party is tracked.
    mutating func record(_ event: inout ServiceEvent, for party: Party) {
        guard var log = logs[party] else { return }
        log.latest += 1
        event.eventID = id(log.latest)
        log.events.append(event)
        if log.events.count > Self.capacity { log.events.removeFirst(log.events.count - Self.capacity) }
        logs[party] = log
    }

    /// The party's events after `lastID`, or nil when that id is not of this instance, is
    /// unknown, or events after it are no longer kept.
    func missed(by party: Party, after lastID: String) -> [ServiceEvent]? {
        let parts = lastID.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == epoch, let n = Int(parts[1]), n >= 0, let log = logs[party],
              n <= log.latest else { return nil }
        let kept = log.latest - log.events.count  // the N before the first kept event
        guard n >= kept else { return nil }
        return Array(log.events.suffix(log.latest - n))
    }

    private func id(_ n: Int) -> String { "\(epoch).\(n)" }
}
