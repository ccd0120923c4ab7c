import DispatchCore

// MARK: - Core timers parked behind the model's own events (ParkedTimer)

extension CitySimulation {
    /// The core asked to be woken at `time`: park the timer behind the settling event just scheduled
    /// for it, or schedule it.
    func wake(_ timer: TimerID, at time: Double) {
        if parksTimers, let settler = justScheduledSettler, settler.request == timer.request.rawValue, settler.at < time,
           settler.settler == (timer.kind == .offerTimeout ? .answer : timer.kind == .maximumAllowedDelay ? .pickup : nil) {
            let d = Int(settler.driver)
            if let earlier = drivers[d].parked { release(earlier) }
            drivers[d].parked = ParkedTimer(timer: EventTimer(timer), due: time, settler: settler.settler,
                                            generation: settler.generation)
        } else {
            schedule(.coreTimer(EventTimer(timer)), at: time)
        }
    }

    /// Parks or schedules the patience timers deferred from `mark` on (`parkPatience`), and forgets them.
    func settleDeferredPatience(from mark: Int) {
        for i in mark..<deferredPatience.count { parkPatience(deferredPatience[i].timer, at: deferredPatience[i].at) }
        deferredPatience.removeSubrange(mark...)
    }

    /// A customer's patience timer (D7), once the effects that came with it are applied: it waits behind
    /// the answer to the request's offer if that answer is due first (patience cannot act once accepted).
    private func parkPatience(_ timer: TimerID, at time: Double) {
        guard let settler = justScheduledSettler, settler.settler == .answer, settler.request == timer.request.rawValue,
              settler.at < time else { return schedule(.coreTimer(EventTimer(timer)), at: time) }
        let d = Int(settler.driver)
        if let earlier = drivers[d].parkedPatience { release(earlier) }
        drivers[d].parkedPatience = ParkedTimer(timer: EventTimer(timer), due: time, settler: .answer,
                                                generation: settler.generation)
    }

    /// The settling event of driver `d` with `generation` has fired: release the timers waiting behind it.
    func settleParked(_ d: Int32, by settler: ParkedTimer.Settler, generation: UInt32) {
        if let parked = drivers[Int(d)].parked, parked.settler == settler, parked.generation == generation {
            drivers[Int(d)].parked = nil
            release(parked)
        }
        if let parked = drivers[Int(d)].parkedPatience, parked.settler == settler, parked.generation == generation {
            drivers[Int(d)].parkedPatience = nil
            release(parked)
        }
    }

    /// Schedules a parked timer for its due time if it may still act; drops it otherwise.
    private func release(_ parked: ParkedTimer) {
        guard core.timerCanAct(parked.timer.timer) else { return }
        schedule(.coreTimer(parked.timer), at: parked.due)
    }
}
