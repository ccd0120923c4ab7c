import DispatchCore

// MARK: - Core timers parked behind the model's own events (ParkedTimer)

extension CitySimulation {
    /// The core asked to be woken at `time`: park the timer behind the settling event just scheduled
    /// for its request if that event comes first, or schedule it. (Patience timers come here once the
    /// effects around them are applied: `settleDeferredPatience`.)
    func wake(_ timer: TimerID, at time: Double) {
        guard parksTimers, let settler = justScheduledSettler, settler.request == timer.request.rawValue,
              settler.at < time, settler.settler == ParkedTimer.Settler.settling(timer.kind)
        else { return schedule(.coreTimer(EventTimer(timer)), at: time) }
        let parked = ParkedTimer(timer: EventTimer(timer), due: time, settler: settler.settler, generation: settler.generation)
        let d = Int(settler.driver)
        if timer.kind == .patience { park(parked, in: &drivers[d].parkedPatience) } else { park(parked, in: &drivers[d].parked) }
    }

    /// Wakes for the patience timers deferred from `mark` on, and forgets them.
    func settleDeferredPatience(from mark: Int) {
        for i in mark..<deferredPatience.count { wake(deferredPatience[i].timer, at: deferredPatience[i].at) }
        deferredPatience.removeSubrange(mark...)
    }

    /// The settling event of driver `d` with `generation` has fired: release the timers waiting behind it.
    func settleParked(_ d: Int32, by settler: ParkedTimer.Settler, generation: UInt32) {
        settle(&drivers[Int(d)].parked, by: settler, generation: generation)
        settle(&drivers[Int(d)].parkedPatience, by: settler, generation: generation)
    }

    /// Puts `parked` in `slot`, releasing the timer that was there (its settling event has not fired,
    /// but a newer offer or assignment of the driver means it no longer will for that timer).
    private func park(_ parked: ParkedTimer, in slot: inout ParkedTimer?) {
        if let earlier = slot { release(earlier) }
        slot = parked
    }

    /// Releases the timer in `slot` if it waits behind this settling event.
    private func settle(_ slot: inout ParkedTimer?, by settler: ParkedTimer.Settler, generation: UInt32) {
        guard let parked = slot, parked.settler == settler, parked.generation == generation else { return }
        slot = nil
        release(parked)
    }

    /// Schedules a parked timer for its due time if it may still act; drops it otherwise.
    private func release(_ parked: ParkedTimer) {
        guard core.timerCanAct(parked.timer.timer) else { return }
        schedule(.coreTimer(parked.timer), at: parked.due)
    }
}
