import DispatchCore

/// A core timer the simulator holds back from its event queue because an event of the model's own,
/// due strictly earlier, will settle what the timer guards: an offer's timeout (D4) and the
/// customer's patience (D7) wait behind the driver's answer, and a maximum-allowed-delay deadline
/// (D9) behind the taxi reaching the pickup. When that event fires (acted on or void), the timer
/// is scheduled for its due time if the core says it may still act (`DispatchCore.timerCanAct`),
/// and dropped otherwise.
///
/// Why: nearly all of these timers are stale when due. City-scale fired ~500,000 offer timeouts,
/// ~475,000 patience timers and ~470,000 D9 timers that changed nothing: 40 % of its events, each
/// a heap push and pop.
///
/// Invariant: `due` is after the settling event's time, so a released timer is never late.
struct ParkedTimer {
    /// The model's event a parked timer waits behind.
    enum Settler: UInt8 {
        /// `SimEvent.answer`: the driver answers the offer.
        case answer
        /// `SimEvent.reachesPickup`: the taxi reaches the customer.
        case pickup

        /// The event a timer of `kind` may wait behind: the answer settles an offer's timeout and the
        /// customer's patience, the pickup settles D9; nil for the others.
        static func settling(_ kind: TimerID.Kind) -> Settler? {
            switch kind {
            case .offerTimeout, .patience: return .answer
            case .maximumAllowedDelay: return .pickup
            case .reservationAllocation, .batchEpoch: return nil
            }
        }
    }

    let timer: EventTimer
    let due: Double
    let settler: Settler
    /// The driver generation the settling event carries: only that event releases the timer.
    let generation: UInt32
}

/// The settling event just scheduled while the core's effects are applied, for the timer effect
/// that follows it in the same list (`.offer` then its timeout; `.customerNotified` then D9).
struct PendingSettler {
    let request: Int
    let driver: Int32
    let at: Double
    let settler: ParkedTimer.Settler
    let generation: UInt32
}
