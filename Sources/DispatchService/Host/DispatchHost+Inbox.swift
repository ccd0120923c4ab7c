import DispatchCore

/// Who waits for a logged command to be durable: a task suspended in `execute`, or a ride from the inbox
/// whose answer is a callback.
enum DurabilityWaiter {
    case task(CheckedContinuation<Void, any Error>)
    case ride(RequestID, effects: [Effect], answer: @Sendable (Result<RideSnapshot, any Error>) -> Void)

    /// Tells the waiter its command was lost.
    func fail(_ error: HostError) {
        switch self {
        case .task(let waiting): waiting.resume(throwing: error)
        case .ride(_, _, let answer): answer(.failure(error))
        }
    }
}

extension DispatchHost {
    /// D3–D7, D12: a new immediate request of the customer, as `requestRide`, from outside the actor and without
    /// a task per request: the ride joins the inbox, and the host applies every ride there in one turn and
    /// commits them with the round that follows. `answer` is called once, on the host (so it must not block):
    /// the ride once durable, or the error (`DispatchError`, `HostError`) that `requestRide` would throw.
    /// Rides submitted in order are applied in that order.
    nonisolated func submitRide(customer: CustomerID, from origin: Position, to destination: Position,
                                patience: Double,
                                answer: @escaping @Sendable (Result<RideSnapshot, any Error>) -> Void) {
        let ride = RideInbox.Ride(customer: customer, origin: origin, destination: destination, patience: patience,
                                  answer: answer)
        if rideInbox.submit(ride) {
            Task { await self.drainRides() }
        }
    }

    /// The inbox's drainer: applies the rides waiting there, writes them unless a round of commits is already
    /// in progress (it takes them), and stops once the inbox is empty.
    private func drainRides() async {
        while let rides = rideInbox.takeAllOrStop() {
            admit(rides)
            if !isWriting { try? await writeRounds() }  // a failed write has told each of its waiters
        }
    }

    /// Applies the rides the inbox holds now (the first round of commits takes them after its pause).
    func admitRides() {
        let rides = rideInbox.takeAll()
        if !rides.isEmpty { admit(rides) }
    }

    /// Applies each ride in order and queues it for the next commit; a refused ride is answered at once.
    private func admit(_ rides: [RideInbox.Ride]) {
        for ride in rides {
            let id = newRequestID()
            do {
                let (entry, effects) = try accept(.requestRide(id, customer: ride.customer, origin: ride.origin,
                                                               destination: ride.destination, patience: ride.patience))
                enqueue(entry, for: .ride(id, effects: effects, answer: ride.answer))
            } catch {
                ride.answer(.failure(error))
            }
        }
    }

    /// Tells a waiter its command is durable: a ride's effects are published and it is answered with the ride
    /// (still in memory: `archiveEnded` leaves a ride whose ending command is not durable, and this runs in the
    /// same turn as the commit's end).
    func durable(_ waiter: DurabilityWaiter) {
        switch waiter {
        case .task(let waiting): waiting.resume()
        case .ride(let id, let effects, let answer):
            publish(effects)
            answer(.success(ride(id)!))
        }
    }
}
