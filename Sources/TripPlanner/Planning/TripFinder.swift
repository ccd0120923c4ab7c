import DispatchCore

/// One trip to plan: where, not before when, ideally arriving by when, at the latest by when.
struct TripRequest {
    var from: Position
    var to: Position
    /// The traveller is free from this time on.
    var notBefore: Double
    /// Arrive by this time if possible, leaving as late as possible; nil = leave at `notBefore`.
    var target: Double?
    /// Trips arriving later are useless.
    var deadline: Double = .infinity
    /// The appointment at the destination (nil: home).
    var appointment: Appointment?
    /// Whether the own car and bike are where the trip starts (the trip-chain rule).
    var carHere = false
    var bikeHere = false
}

/// Computes, for one trip, the best trip by each means the rules allow.
struct TripFinder {
    let conditions: DayConditions
    let carTravel: any TravelTimeEstimator
    let transit: ConnectionScanRouter?
    let taxi: (any TaxiBooking)?

    var preferences: Preferences { conditions.preferences }
    var walkSpeed: Double { MeansFactors.of(.walk).speed! }

    /// The means the preferences leave for a trip to `appointment`: not disabled globally, for
    /// the appointment or by its template; bikes carry nobody; cars and taxis 4 people.
    func allowedMeans(to appointment: Appointment?) -> [TravelMeans] {
        var disabled = preferences.disabledMeans
        if let appointment {
            disabled.formUnion(appointment.disabledMeans)
            if let name = appointment.template, let template = preferences.templates[name] {
                disabled.formUnion(template.disabledMeans)
            }
        }
        let passengers = appointment?.passengers ?? 0
        return TravelMeans.allCases.filter { means in
            if disabled.contains(means) { return false }
            if means.isBike, passengers > 0 { return false }
            if [.ownCar, .carSharing, .taxi].contains(means), passengers > 3 { return false }
            return true
        }
    }

    /// Each allowed means' trip, unsorted; a trip between identical places has no legs.
    func options(_ request: TripRequest) -> [Trip] {
        if request.from == request.to {
            return [Trip.stay(at: request.from, time: request.notBefore)]
        }
        var trips: [Trip] = []
        for means in allowedMeans(to: request.appointment) {
            guard let trip = trip(by: means, request) else { continue }
            if trip.arrival <= request.deadline + 1e-6, trip.departure >= request.notBefore - 1e-6 { trips.append(trip) }
        }
        return trips
    }

    func trip(by means: TravelMeans, _ request: TripRequest) -> Trip? {
        let passengers = Double(request.appointment?.passengers ?? 0)
        let (from, to) = (request.from, request.to)
        switch means {
        case .walk:
            let metres = from.manhattanDistance(to: to)
            guard metres <= preferences.maximumWalkingDistance else { return nil }
            return timed(request) { departure in
                Trip(legs: [walkLeg(from: from, to: to, departure: departure, detail: "walk")],
                     from: from, to: to, departure: departure, arrival: departure + metres / walkSpeed)
            }
        case .ownBike:
            guard request.bikeHere else { return nil }
            return timed(request) { bikeTrip(from: from, to: to, departure: $0, means: .ownBike, perMinute: 0) }
        case .bikeSharing:
            guard let vehicle = nearestSharing(.bike, to: from) else { return nil }
            return timed(request) { departure in
                let walk = walkLeg(from: from, to: vehicle.position, departure: departure, detail: "walk to shared bike")
                guard var trip = bikeTrip(from: vehicle.position, to: to, departure: walk.arrival, means: .bikeSharing,
                                          perMinute: vehicle.eurosPerMinute) else { return nil }
                trip.legs.insert(walk, at: 0)
                trip.from = from
                trip.departure = departure
                return trip
            }
        case .ownCar:
            guard request.carHere else { return nil }
            return timed(request) { carTrip(from: from, to: to, departure: $0, means: .ownCar, perMinute: 0) }
        case .carSharing:
            guard let vehicle = nearestSharing(.car, to: from) else { return nil }
            return timed(request) { departure in
                let walk = walkLeg(from: from, to: vehicle.position, departure: departure, detail: "walk to shared car")
                var trip = carTrip(from: vehicle.position, to: to, departure: walk.arrival, means: .carSharing,
                                   perMinute: vehicle.eurosPerMinute)
                trip.legs.insert(walk, at: 0)
                trip.from = from
                trip.departure = departure
                return trip
            }
        case .taxi:
            guard let taxi else { return nil }
            return timed(request) { departure in
                guard let quote = taxi.quote(from: from, to: to, departure: departure, now: conditions.now) else { return nil }
                let arrival = departure + quote.wait + quote.rideSeconds
                let detail = quote.isReservation ? "taxi, reserved" : "taxi, ~\(Int((quote.wait / 60).rounded())) min wait"
                let leg = Leg(means: .taxi, from: from, to: to, departure: departure, arrival: arrival, distance: quote.rideMetres,
                              cost: quote.fare, co2: MeansFactors.of(.taxi).gramsCO2PerKilometre * quote.rideMetres / 1000,
                              detail: detail)
                return Trip(legs: [leg], from: from, to: to, departure: departure, arrival: arrival)
            }
        case .transit:
            guard let transit else { return nil }
            let access = TransitAccess(maximumWalk: preferences.maximumWalkingDistance, walkSpeed: walkSpeed,
                                       blocked: conditions.transitBlocked)
            var legs: [Leg]?
            if let target = request.target, target > request.notBefore {
                legs = transit.latestDeparture(from: from, to: to, arrivingBy: target, notBefore: request.notBefore, access: access)
            }
            if legs == nil {
                legs = transit.earliestArrival(from: from, to: to, departingAt: request.notBefore, access: access)
            }
            guard var found = legs, let firstRide = found.firstIndex(where: { $0.means == .transit }) else { return nil }
            let ticket = MeansFactors.of(.transit).eurosPerUse
            found[firstRide].cost = ticket * (passengers + (conditions.seasonPass ? 0 : 1))
            for index in found.indices { found[index].co2 *= 1 + passengers }
            return Trip(legs: found, from: from, to: to, departure: found[0].departure, arrival: found[found.count - 1].arrival)
        }
    }

    // MARK: - Building blocks

    /// Builds the trip leaving at `notBefore`; when it would arrive before the request's
    /// target, leaves as late as possible so as to arrive by the target: the time-dependent
    /// duration is re-evaluated a few times, and when the later trip is impossible (rain, a
    /// strike, no taxi) earlier departures are tried every 15 minutes back to `notBefore`.
    private func timed(_ request: TripRequest, _ build: (Double) -> Trip?) -> Trip? {
        guard let target = request.target, target > request.notBefore else { return build(request.notBefore) }
        var departure = target
        for _ in 0..<4 {
            guard let trip = build(departure) else { break }
            if trip.arrival <= target + 1e-6 { return trip }
            departure -= trip.arrival - target
            if departure <= request.notBefore { break }
        }
        departure = min(departure, target) - 900
        while departure > request.notBefore {
            if let trip = build(departure), trip.arrival <= target + 1e-6 { return trip }
            departure -= 900
        }
        return build(request.notBefore)
    }

    private func walkLeg(from: Position, to: Position, departure: Double, detail: String) -> Leg {
        let metres = from.manhattanDistance(to: to)
        return Leg(means: .walk, from: from, to: to, departure: departure, arrival: departure + metres / walkSpeed,
                   distance: metres, cost: 0, co2: 0, detail: detail)
    }

    /// A bike ride, or nil when rain or the hour forbids it.
    private func bikeTrip(from: Position, to: Position, departure: Double, means: TravelMeans, perMinute: Double) -> Trip? {
        let factors = MeansFactors.of(means)
        let metres = from.manhattanDistance(to: to)
        let seconds = factors.overheadSeconds + metres / factors.speed!
        let arrival = departure + seconds
        if preferences.noBikeInRain, conditions.weather.rains(from: departure, to: arrival) { return nil }
        if let limit = preferences.bikeUntil, arrival > limit { return nil }
        let cost = factors.eurosPerUse + factors.eurosPerKilometre * metres / 1000 + perMinute * seconds / 60
        let leg = Leg(means: means, from: from, to: to, departure: departure, arrival: arrival, distance: metres,
                      cost: cost, co2: 0, detail: means == .ownBike ? "own bike" : "shared bike")
        return Trip(legs: [leg], from: from, to: to, departure: departure, arrival: arrival)
    }

    /// A drive through the city's travel model plus parking.
    private func carTrip(from: Position, to: Position, departure: Double, means: TravelMeans, perMinute: Double) -> Trip {
        let factors = MeansFactors.of(means)
        let metres = carTravel.roadDistance(from: from, to: to)
        let seconds = carTravel.travelTime(from: from, to: to, departingAt: departure) + factors.overheadSeconds
        let cost = factors.eurosPerUse + factors.eurosPerKilometre * metres / 1000 + perMinute * seconds / 60
        let leg = Leg(means: means, from: from, to: to, departure: departure, arrival: departure + seconds, distance: metres,
                      cost: cost, co2: factors.gramsCO2PerKilometre * metres / 1000,
                      detail: means == .ownCar ? "own car, parking included" : "shared car")
        return Trip(legs: [leg], from: from, to: to, departure: departure, arrival: departure + seconds)
    }

    /// The shared vehicle of a kind nearest to `position` within walking distance.
    private func nearestSharing(_ kind: SharingVehicle.Kind, to position: Position) -> SharingVehicle? {
        conditions.sharingVehicles
            .filter { $0.kind == kind && $0.position.manhattanDistance(to: position) <= preferences.maximumWalkingDistance }
            .min { $0.position.manhattanDistance(to: position) < $1.position.manhattanDistance(to: position) }
    }
}
