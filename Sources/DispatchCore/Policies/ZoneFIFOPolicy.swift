/// The documents' rule (D3, D6, D15): the request goes to the first eligible
/// taxi of its origin zone's queue; when that zone has none, to the eligible
/// available taxi with the smallest ETA in the other zones (CAT).
/// D4 and D5 (what happens to silent and declining drivers) are `DispatchRules`.
public struct ZoneFIFOPolicy: DispatchPolicy {
    public let name = "zone-fifo"
    public init() {}

    public func selectTaxi(for request: OpenRequest, in view: DispatchView) -> TaxiChoice? {
        if let first = view.firstInQueue(of: request.originZone, where: { view.isEligible($0, for: request) }) {
            return TaxiChoice(taxi: first, eta: view.eta(of: first, to: request.origin))
        }
        return view.nearestAvailableTaxi(to: request.origin) { view.isEligible($0, for: request) }
    }
}

/// Beyond the documents, for comparison: the eligible available taxi with the
/// smallest ETA, whatever its zone or time in the queue.
public struct NearestIdlePolicy: DispatchPolicy {
    public let name = "nearest-idle"
    public init() {}

    public func selectTaxi(for request: OpenRequest, in view: DispatchView) -> TaxiChoice? {
        view.nearestAvailableTaxi(to: request.origin) { view.isEligible($0, for: request) }
    }
}
