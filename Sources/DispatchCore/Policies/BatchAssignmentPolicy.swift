/// Beyond the documents, for comparison: collect requests for a window of W
/// seconds, then choose the assignment that serves as many requests as
/// possible with the minimum total ETA (the Hungarian method on a sparse graph
/// of each request's `candidatesPerRequest` nearest eligible taxis).
///
/// Invariant: `window > 0`, `candidatesPerRequest >= 1`; each taxi is assigned
/// at most once per window.
public struct BatchAssignmentPolicy: DispatchPolicy {
    public let name = "batch"
    public let window: Double
    public let candidatesPerRequest: Int

    public init(window: Double, candidatesPerRequest: Int) throws(DispatchError) {
        guard window.isFinite, window > 0 else { throw .invalidConfiguration("batch.window_s must be > 0 (got \(window))") }
        guard candidatesPerRequest >= 1 else {
            throw .invalidConfiguration("batch.candidates_per_request must be >= 1 (got \(candidatesPerRequest))")
        }
        self.window = window
        self.candidatesPerRequest = candidatesPerRequest
    }

    public var batchWindow: Double? { window }

    public func selectTaxi(for request: OpenRequest, in view: DispatchView) -> TaxiChoice? {
        view.nearestAvailableTaxi(to: request.origin) { view.isEligible($0, for: request) }
    }

    public func assign(_ requests: [OpenRequest], in view: DispatchView) -> [TaxiChoice?] {
        // Sized for every candidate, so the table never grows during the round.
        var columnOf = [TaxiHandle: Int](minimumCapacity: requests.count * candidatesPerRequest)
        var taxis: [TaxiHandle] = []
        var edges: [[MinCostMatching.Edge]] = []
        edges.reserveCapacity(requests.count)
        // One candidate list for the round, emptied for each request (`nearestAvailableTaxis` without its arrays).
        var candidates = BestTaxis(limit: candidatesPerRequest)
        for request in requests {
            candidates.removeAll()
            view.search(to: request.origin, into: &candidates) { view.isEligible($0, for: request) }
            edges.append(candidates.list.map { found in
                let taxi = TaxiHandle(slot: found.slot)
                let column = columnOf[taxi] ?? {
                    taxis.append(taxi)
                    columnOf[taxi] = taxis.count - 1
                    return taxis.count - 1
                }()
                return MinCostMatching.Edge(column: column, cost: found.eta)
            })
        }
        let matched = MinCostMatching.solve(rows: edges, columns: taxis.count)
        return zip(requests.indices, matched).map { row, column in
            guard let column else { return nil }
            let eta = edges[row].first { $0.column == column }!.cost
            return TaxiChoice(taxi: taxis[column], eta: eta)
        }
    }
}
