extension RandomStream {
    /// A draw from a scenario's duration distribution, in seconds.
    public func duration(_ spec: DistributionSpec) -> Double {
        switch spec {
        case .zero: return 0
        case .infinite: return .infinity
        case .fixed(let seconds): return seconds
        case .exponential(let mean): return exponential(mean: mean)
        case .lognormal(let mean, let cv): return cv == 0 ? mean : lognormal(mean: mean, cv: cv)
        }
    }
}
