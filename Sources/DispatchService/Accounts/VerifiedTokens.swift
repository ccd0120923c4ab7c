import Synchronization

/// Bearer tokens already checked against the store, with the caller's identity and the
/// token's expiry, so a signed-in caller's requests do not each read SQLite twice
/// (token row, then account row).
///
/// Invariant: an entry is answered only before its expiry, and only while the store
/// still holds its token for an enabled account: every path that deletes tokens
/// (logout, invalidation, password reset, disabling) removes the entries too, and a
/// lookup that raced with such a removal is not cached (the `epoch` check).
///
/// ```swift
/// let epoch = cache.epoch
/// // … read the token and the account from the store …
/// cache.insert(hash, identity, expiresAt: expiry, ifEpoch: epoch)
/// ```
final class VerifiedTokens: Sendable {
    private struct State {
        var entries: [String: (identity: Identity, expiresAt: Double)] = [:]
        var epoch: UInt64 = 0
    }
    private let state = Mutex(State())
    /// Above this many entries the cache starts again empty (tokens are re-read once).
    let capacity: Int

    init(capacity: Int = 200_000) { self.capacity = capacity }

    /// The identity behind a token hash, if cached and not expired at `now`.
    func identity(for hash: String, now: Double) -> Identity? {
        state.withLock { state in
            guard let entry = state.entries[hash] else { return nil }
            guard entry.expiresAt > now else {
                state.entries[hash] = nil
                return nil
            }
            return entry.identity
        }
    }

    /// Changes whenever an entry is removed; read it before the store lookup.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Caches a verified token unless something was removed since `epoch` was read.
    func insert(_ hash: String, _ identity: Identity, expiresAt: Double, ifEpoch epoch: UInt64) {
        state.withLock { state in
            guard state.epoch == epoch else { return }
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[hash] = (identity, expiresAt)
        }
    }

    func remove(hash: String) {
        state.withLock { state in
            state.epoch &+= 1
            state.entries[hash] = nil
        }
    }

    /// Forgets every token of the account, except `kept` (the caller's own session, if it stays).
    func remove(accountID: Int, except kept: String? = nil) {
        state.withLock { state in
            state.epoch &+= 1
            state.entries = state.entries.filter { $0.value.identity.accountID != accountID || $0.key == kept }
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
