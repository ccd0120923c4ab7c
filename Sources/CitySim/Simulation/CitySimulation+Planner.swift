import DispatchCore

// MARK: - Planner users' taxi legs

extension CitySimulation {
    /// Books the next planned taxi leg — a reservation (meeting time = planned departure) or an
    /// immediate request — through the same command API as every other customer, and schedules
    /// the one after it. Planner users never cancel. A leg the core refuses (D12: the user's
    /// previous immediate request is still open) is recorded as refused, not retried.
    func bookPlannerLeg() {
        guard let planned = plannerDemand else { return }
        let index = plannerBookings.count
        let leg = planned.legs[index]
        if index + 1 < planned.legs.count { schedule(.plannerLeg, at: planned.legs[index + 1].bookAt) }
        let now = events.now
        let id = RequestID(rides.count)
        let customer = CustomerID(PlannerDemand.firstCustomer + leg.user)
        let zone = city.zoneIndex(of: leg.origin)
        rides.append(RideRecord(customer: customer, requestedAt: now, meetingTime: leg.isReservation ? leg.departure : nil,
                                origin: leg.origin, destination: leg.destination, originZone: zone),
                     draw: RideDraw(rideParameters, ridesRandom))
        let refusal = leg.isReservation
            ? attempt(.reserveRide(id, customer: customer, origin: leg.origin, destination: leg.destination,
                                   meetingTime: leg.departure))
            : attempt(.requestRide(id, customer: customer, origin: leg.origin, destination: leg.destination,
                                   patience: leg.patience))
        if let refusal {
            rides.removeLast()
            plannerBookings.append(nil)
            countRefusal(refusal)
        } else {
            plannerBookings.append(id)
        }
    }
}
