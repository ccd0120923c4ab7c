import DispatchCore

/// How far and how fast the traveller walks to and from stops, and when there is no service.
struct TransitAccess {
    /// Longest walk to the first stop or from the last stop, metres (Manhattan).
    var maximumWalk: Double
    /// Walking speed, m/s.
    var walkSpeed: Double
    /// Intervals (seconds since midnight) without service: a connection touching one is not run.
    var blocked: [ClosedRange<Double>] = []

    func isBlocked(_ connection: Connection) -> Bool {
        blocked.contains { $0.overlaps(connection.departure...connection.arrival) }
    }
}

/// Earliest-arrival and latest-departure journeys by the Connection Scan Algorithm
/// (Dibbelt, Pajor, Strasser, Wagner: "Connection Scan Algorithm", 2018).
///
/// One pass over the connections sorted by departure (forwards for the earliest arrival,
/// backwards for the latest departure); a trip once reached stays reached, which handles
/// staying seated; changing vehicles needs `transferSeconds` at the same stop. Walking is
/// allowed only from the origin to a first stop and from a last stop to the destination,
/// each at most `maximumWalk` (no footpaths between stops).
///
/// - Complexity: O(s + c) per query for s stops and the c connections scanned.
struct ConnectionScanRouter {
    let network: TransitNetwork

    /// The journey departing at or after `time` that reaches `destination` first, as legs
    /// (walk, ride, [ride…], walk); the walk to the first stop starts as late as possible.
    /// Nil when no journey with at least one ride exists.
    func earliestArrival(from origin: Position, to destination: Position, departingAt time: Double,
                         access: TransitAccess) -> [Leg]? {
        let stopCount = network.stops.count, connections = network.connections
        let transfer = network.transferSeconds
        var walkReady = [Double](repeating: .infinity, count: stopCount)
        var vehicleArrival = [Double](repeating: .infinity, count: stopCount)
        var reachedBy = [(entry: Int, exit: Int)?](repeating: nil, count: stopCount)
        for (stop, metres) in network.stops(near: origin, within: access.maximumWalk) {
            walkReady[Int(stop)] = time + metres / access.walkSpeed
        }
        var egress: [Int32: Double] = [:]
        for (stop, metres) in network.stops(near: destination, within: access.maximumWalk) { egress[stop] = metres }
        guard !egress.isEmpty else { return nil }
        var tripEntry = [Int](repeating: -1, count: network.tripLabels.count)
        var best = Double.infinity
        var bestRide: (entry: Int, exit: Int)?
        for index in network.firstConnection(departingAtOrAfter: time)..<connections.count {
            let connection = connections[index]
            if connection.departure >= best { break }
            if access.isBlocked(connection) { continue }
            let trip = Int(connection.trip)
            if tripEntry[trip] < 0 {
                let stop = Int(connection.departureStop)
                guard walkReady[stop] <= connection.departure || vehicleArrival[stop] + transfer <= connection.departure
                else { continue }
                tripEntry[trip] = index
            }
            let stop = Int(connection.arrivalStop)
            if connection.arrival < vehicleArrival[stop] {
                vehicleArrival[stop] = connection.arrival
                reachedBy[stop] = (tripEntry[trip], index)
            }
            if let metres = egress[connection.arrivalStop], connection.arrival + metres / access.walkSpeed < best {
                best = connection.arrival + metres / access.walkSpeed
                bestRide = (tripEntry[trip], index)
            }
        }
        guard var ride = bestRide else { return nil }
        var rides: [(entry: Int, exit: Int)] = []
        while true {
            rides.insert(ride, at: 0)
            let entry = connections[ride.entry], stop = Int(entry.departureStop)
            if walkReady[stop] <= entry.departure { break }
            ride = reachedBy[stop]!
        }
        return legs(rides: rides, from: origin, to: destination, access: access)
    }

    /// The journey leaving `origin` as late as possible, not before `notBefore`, that
    /// reaches `destination` by `deadline`. Nil when there is none.
    func latestDeparture(from origin: Position, to destination: Position, arrivingBy deadline: Double,
                         notBefore: Double, access: TransitAccess) -> [Leg]? {
        let stopCount = network.stops.count, connections = network.connections
        let transfer = network.transferSeconds
        var egressBy = [Double](repeating: -.infinity, count: stopCount)
        for (stop, metres) in network.stops(near: destination, within: access.maximumWalk) {
            egressBy[Int(stop)] = deadline - metres / access.walkSpeed
        }
        var accessWalk: [Int32: Double] = [:]
        for (stop, metres) in network.stops(near: origin, within: access.maximumWalk) { accessWalk[stop] = metres }
        guard !accessWalk.isEmpty else { return nil }
        var boardBy = [Double](repeating: -.infinity, count: stopCount)
        var boarding = [(entry: Int, exit: Int)?](repeating: nil, count: stopCount)
        var tripExit = [Int](repeating: -1, count: network.tripLabels.count)
        var exitsOnFoot = [Bool](repeating: false, count: network.tripLabels.count)
        var bestLeave = -Double.infinity
        var bestRide: (entry: Int, exit: Int)?
        var index = network.firstConnection(departingAtOrAfter: deadline) - 1
        while index >= 0 {
            defer { index -= 1 }
            let connection = connections[index]
            if connection.departure < notBefore || connection.departure <= bestLeave { break }
            if access.isBlocked(connection) { continue }
            let trip = Int(connection.trip)
            if tripExit[trip] < 0 {
                let stop = Int(connection.arrivalStop)
                if connection.arrival <= egressBy[stop] {
                    exitsOnFoot[trip] = true
                } else if connection.arrival + transfer > boardBy[stop] {
                    continue
                }
                tripExit[trip] = index
            }
            let stop = Int(connection.departureStop)
            if connection.departure > boardBy[stop] {
                boardBy[stop] = connection.departure
                boarding[stop] = (index, tripExit[trip])
            }
            if let metres = accessWalk[connection.departureStop] {
                let leave = connection.departure - metres / access.walkSpeed
                if leave >= notBefore, leave > bestLeave {
                    bestLeave = leave
                    bestRide = (index, tripExit[trip])
                }
            }
        }
        guard var ride = bestRide else { return nil }
        var rides: [(entry: Int, exit: Int)] = []
        while true {
            rides.append(ride)
            if exitsOnFoot[Int(connections[ride.exit].trip)] { break }
            ride = boarding[Int(connections[ride.exit].arrivalStop)]!
        }
        return legs(rides: rides, from: origin, to: destination, access: access)
    }

    /// Walk, the rides in order, walk — as legs without cost (the trip adds the ticket).
    private func legs(rides: [(entry: Int, exit: Int)], from origin: Position, to destination: Position,
                      access: TransitAccess) -> [Leg] {
        let connections = network.connections, stops = network.stops
        var legs: [Leg] = []
        let firstStop = stops[Int(connections[rides[0].entry].departureStop)]
        let walkIn = firstStop.position.manhattanDistance(to: origin)
        if walkIn >= 1 {  // stops placed from latitude and longitude are within centimetres
            let board = connections[rides[0].entry].departure
            legs.append(Leg(means: .walk, from: origin, to: firstStop.position, departure: board - walkIn / access.walkSpeed,
                            arrival: board, distance: walkIn, cost: 0, co2: 0, detail: "walk to \(firstStop.name)"))
        }
        for ride in rides {
            let entry = connections[ride.entry], exit = connections[ride.exit]
            var metres = 0.0
            for index in ride.entry...ride.exit where connections[index].trip == entry.trip {
                metres += stops[Int(connections[index].departureStop)].position
                    .manhattanDistance(to: stops[Int(connections[index].arrivalStop)].position)
            }
            let board = stops[Int(entry.departureStop)], alight = stops[Int(exit.arrivalStop)]
            legs.append(Leg(means: .transit, from: board.position, to: alight.position, departure: entry.departure,
                            arrival: exit.arrival, distance: metres, cost: 0,
                            co2: MeansFactors.of(.transit).gramsCO2PerKilometre * metres / 1000,
                            detail: "\(network.tripLabels[Int(entry.trip)]): \(board.name) → \(alight.name)"))
        }
        let lastStop = stops[Int(connections[rides[rides.count - 1].exit].arrivalStop)]
        let walkOut = lastStop.position.manhattanDistance(to: destination)
        if walkOut >= 1 {
            let alight = connections[rides[rides.count - 1].exit].arrival
            legs.append(Leg(means: .walk, from: lastStop.position, to: destination, departure: alight,
                            arrival: alight + walkOut / access.walkSpeed, distance: walkOut, cost: 0, co2: 0,
                            detail: "walk from \(lastStop.name)"))
        }
        return legs
    }
}
