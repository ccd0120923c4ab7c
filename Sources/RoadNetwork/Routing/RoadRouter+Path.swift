import DispatchCore

extension RoadRouter {
    /// The fastest drive between two points leaving at `time`, as a timed polyline along the roads:
    /// the trip `route(from:to:departingAt:)` times, with the contraction hierarchy's shortcuts
    /// unpacked into road segments.
    /// - Complexity: one hierarchy query plus O(segments on the path · degree).
    public func path(from origin: Position, to destination: Position, departingAt time: Double) -> RoadPath {
        let m = metric(at: time)
        let a = snap(origin), b = snap(destination)
        let weights = edgeWeights[m]
        let access = accessLeg(a, weights), egress = accessLeg(b, weights)
        // Both points on one segment: the drive straight along it, when the direction allows.
        let along = sameSegment(a, b).filter { $0.to >= $0.from }.map { ($0.to - $0.from) * weights[$0.edge] }.min()
        let (sources, targets) = seeds(a, b, access: access, egress: egress, weights)
        let hierarchy = hierarchies[m]
        let (found, nodes) = scratch.withLock { state -> (Double, [Int32]) in
            state.preparedDestination = nil  // this query overwrites the kept backward search
            let found = state.query.distance(in: hierarchy, sources: sources, targets: targets)
            return (found?.cost ?? .infinity, found == nil ? [] : state.query.lastPath(in: hierarchy))
        }
        var points = [origin, a.point], seconds = [0, access.seconds]
        if let along, access.seconds + along + egress.seconds <= found || nodes.isEmpty {
            points.append(b.point); seconds.append(access.seconds + along)
        } else if !nodes.isEmpty {  // (the network is strongly connected: a path is always found)
            // The seeds' costs already hold the access leg and the part of the first segment (sources),
            // or the part of the last segment and the egress leg (targets).
            var clock = sources.filter { $0.node == nodes[0] }.map(\.cost).min() ?? access.seconds
            points.append(graph.positions[Int(nodes[0])]); seconds.append(clock)
            for (u, v) in zip(nodes, nodes.dropFirst()) {
                clock += graph.edges(from: Int(u)).filter { graph.head[$0] == v }.map { weights[$0] }.min() ?? 0
                points.append(graph.positions[Int(v)]); seconds.append(clock)
            }
            clock += (targets.filter { $0.node == nodes[nodes.count - 1] }.map(\.cost).min() ?? egress.seconds) - egress.seconds
            points.append(b.point); seconds.append(clock)
        }
        points.append(destination); seconds.append(seconds[seconds.count - 1] + egress.seconds)
        return RoadPath(points: points, seconds: seconds)
    }
}
