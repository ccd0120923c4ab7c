import DispatchCore

// MARK: - Ended rides archived out of memory

extension DispatchHost {
    /// From now on, rides that ended at least `seconds` ago (service clock) leave memory at the
    /// timer loop's next round: stored in the store's `RideArchive`, then forgotten by the core
    /// and the ledger. D13 reports are taken until then. Without this call nothing is archived.
    public func archiveEndedRides(after seconds: Double) { archiveAfter = max(0, seconds) }

    /// Archives the rides whose end is at least `archiveAfter` old and durable, oldest first, at most
    /// `limit` of them: their snapshots are stored first, so a ride is always in memory or in
    /// the archive (briefly both). Skipped while another archiving round or a rebuild runs.
    /// - Returns: how many rides left memory.
    /// - Throws: the store's error; nothing left memory then (the next round tries again).
    @discardableResult
    public func archiveEnded(limit: Int = 20_000) async throws -> Int {
        guard let after = archiveAfter, !archiving else { return 0 }
        var through = max(clock.now(), core.now) - after
        // A ride whose ending command is not durable yet stays: its commit may still fail (and the ride with it),
        // and its answer is read from memory once the commit is durable. Those ended strictly before the last
        // durable command's time ended by a durable command.
        if hasUndurableCommands { through = min(through, durableTime.nextDown) }
        let due = ledger.ended(through: through, limit: limit)
        guard !due.isEmpty else { return 0 }
        archiving = true
        defer { archiving = false }
        let generation = rebuilds
        let ended = due.compactMap { entry in ride(entry.id).map { EndedRide($0, endedAt: entry.at) } }
        let rides = ended.map(\.ride)
        try await store.archive(ended)
        guard generation == rebuilds else { return 0 }  // rebuilt meanwhile: the replay archives them again
        ledger.dropEnded(due.count)
        for ride in rides {
            do {
                try core.archive(ride.id)
            } catch {
                continue  // cannot happen: the ledger lists only ended rides
            }
            ledger.forget(ride.id)
            archivedCounts[ride.status, default: 0] += 1
        }
        return rides.count
    }

    /// From now on, archived rides are deleted `seconds` (service clock) after they ended (nil: kept
    /// for ever), by `deleteExpiredArchive`; `archivedCounts` keeps counting them.
    public func retainArchive(for seconds: Double?) { archiveRetention = seconds }

    /// Deletes from the archive the rides that ended more than the retention ago, except those a
    /// restart from the newest checkpoint could hold in memory again (`restorableFrom`): such a ride
    /// would be archived and counted a second time. So nothing is deleted before the first checkpoint,
    /// and a ride is deleted once a checkpoint taken after it left memory exists.
    /// The archive's counts stay: they are totals of every ride that ended.
    /// - Returns: how many archived rides were deleted (0 without a retention).
    /// - Throws: the store's error (what was deleted before it stays deleted; the next round goes on).
    @discardableResult
    public func deleteExpiredArchive() async throws -> Int {
        guard let retention = archiveRetention, let restorable = restorableFrom else { return 0 }
        let cutoff = min(max(clock.now(), core.now) - retention, restorable)
        let deleted = try await store.deleteArchivedRides(endedBefore: cutoff)
        archiveRidesDeleted += deleted
        return deleted
    }

    /// After a replay, takes out of memory again the rides the store has archived, so a restarted
    /// host holds exactly what it held before (the ended list may still name them: they are skipped).
    /// Only archived ids from the smallest id held on are read, so after a checkpoint this pages
    /// through the rides archived since, not the whole archive.
    func dropArchived(from core: DispatchCore, ledger: inout RideLedger) async throws -> [RequestStatus: Int] {
        var after = (ledger.rides.keys.min()?.rawValue ?? Int.max) - 1
        while true {
            let page = try await store.archivedStates(after: after, limit: 50_000)
            for (id, _) in page {
                try? core.archive(id)
                ledger.forget(id)
            }
            guard let last = page.last else { break }
            after = last.id.rawValue
        }
        return try await store.archivedCounts()
    }

    /// Rides held in memory: the larger of the core's and the ledger's counts (tests, diagnostics).
    var heldRecords: Int { max(core.requestCount, ledger.rides.count) }

    /// The ride in memory, else from the archive.
    public func storedRide(_ id: RequestID) async throws -> RideSnapshot? {
        if let ride = ride(id) { return ride }
        return try await store.archivedRide(id)
    }

    /// The customer's rides in memory and archived, lowest id first.
    public func storedRides(of customer: CustomerID) async throws -> [RideSnapshot] {
        let held = rides(of: customer)
        let archived = try await store.archivedRides(of: customer)
        let heldIDs = Set(held.map(\.id))
        return (held + archived.filter { !heldIDs.contains($0.id) }).sorted { $0.id < $1.id }
    }

    /// Archived rides' ids and states above `after`, id order (the admin state's pages).
    nonisolated func archivedStates(after: Int, limit: Int) async throws -> [ArchivedState] {
        try await store.archivedStates(after: after, limit: limit)
    }
}
