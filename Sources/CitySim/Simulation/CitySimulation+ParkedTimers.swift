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

    /// The settling event of driver `d` with `generation` has fired: release the timer waiting behind it.
    func settleParked(_ d: Int32, by settler: ParkedTimer.Settler, generation: UInt32) {
        guard let parked = drivers[Int(d)].parked, parked.settler == settler, parked.generation == generation else { return }
        drivers[Int(d)].parked = nil
        release(parked)
    }

    /// Schedules a parked timer for its due time if it may still act; drops it otherwise.
    private func release(_ parked: ParkedTimer) {
        guard core.timerCanAct(parked.timer.timer) else { return }
        schedule(.coreTimer(parked.timer), at: parked.due)
    }
}
