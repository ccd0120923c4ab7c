/// A random duration in seconds, as a scenario states it: a kind and its parameters.
///
/// YAML form, one mapping with `kind` and only the parameters of that kind:
///
/// ```yaml
/// patience:   { kind: zero }                        # always 0 s
/// patience:   { kind: infinite }                    # never ends
/// response_s: { kind: fixed, value_s: 8 }           # always value_s (>= 0)
/// response_s: { kind: exponential, mean_s: 8 }      # exponential with mean mean_s (> 0)
/// response_s: { kind: lognormal, mean_s: 8, cv: 0.6 }  # lognormal with mean mean_s (> 0), coefficient of variation cv (>= 0)
/// ```
///
/// Each field that holds a `DistributionSpec` says which kinds it allows; a
/// parameter that does not belong to the kind is an error.
public enum DistributionSpec: Sendable, Equatable, Hashable {
    /// Always 0 s.
    case zero
    /// Never ends (for patience: waits forever; for a rejoin delay: never comes back).
    case infinite
    /// Always exactly `seconds` (>= 0).
    case fixed(seconds: Double)
    /// Exponentially distributed with mean `meanSeconds` (> 0).
    case exponential(meanSeconds: Double)
    /// Lognormal with mean `meanSeconds` (> 0) and coefficient of variation `cv` (>= 0; 0 = fixed).
    case lognormal(meanSeconds: Double, cv: Double)

    /// The `kind` names of the YAML form.
    public enum Kind: String, CaseIterable, Sendable {
        case zero, infinite, fixed, exponential, lognormal
    }

    /// The kind of this distribution.
    public var kind: Kind {
        switch self {
        case .zero: return .zero
        case .infinite: return .infinite
        case .fixed: return .fixed
        case .exponential: return .exponential
        case .lognormal: return .lognormal
        }
    }

    /// The mean in seconds (`.infinity` for `.infinite`).
    public var meanSeconds: Double {
        switch self {
        case .zero: return 0
        case .infinite: return .infinity
        case .fixed(let seconds): return seconds
        case .exponential(let mean): return mean
        case .lognormal(let mean, _): return mean
        }
    }

    /// Kinds that describe a finite, positive-or-zero duration drawn per event (no `zero`/`infinite`).
    static let durations: [Kind] = [.fixed, .exponential, .lognormal]
}

// MARK: - Coding

extension DistributionSpec: Encodable {
    enum CodingKeys: String, ScenarioKeys {
        case kind
        case meanSeconds = "mean_s"
        case cv
        case valueSeconds = "value_s"
    }

    private static func keys(of kind: Kind) -> [CodingKeys] {
        switch kind {
        case .zero, .infinite: return [.kind]
        case .fixed: return [.kind, .valueSeconds]
        case .exponential: return [.kind, .meanSeconds]
        case .lognormal: return [.kind, .meanSeconds, .cv]
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind.rawValue, forKey: .kind)
        switch self {
        case .zero, .infinite: break
        case .fixed(let seconds): try container.encode(seconds, forKey: .valueSeconds)
        case .exponential(let mean): try container.encode(mean, forKey: .meanSeconds)
        case .lognormal(let mean, let cv):
            try container.encode(mean, forKey: .meanSeconds)
            try container.encode(cv, forKey: .cv)
        }
    }

    /// Reads a distribution, allowing only the given kinds.
    static func read(_ reader: ScenarioReader, allowed: [Kind] = Kind.allCases) throws(ScenarioError)
        -> DistributionSpec
    {
        let map = try reader.mapping(CodingKeys.self)
        let kind = try map.required(.kind) { (r) throws(ScenarioError) -> Kind in
            let kind = try r.choice(Kind.self)
            guard allowed.contains(kind) else {
                throw r.error("kind '\(kind.rawValue)' is not allowed here (allowed: "
                    + allowed.map(\.rawValue).joined(separator: ", ") + ")")
            }
            return kind
        }
        let permitted = keys(of: kind)
        for key in CodingKeys.allCases where !permitted.contains(key) && map.has(key) {
            throw map.error(at: key, "key '\(key.stringValue)' does not apply to kind '\(kind.rawValue)' (its keys: "
                + permitted.map(\.stringValue).joined(separator: ", ") + ")")
        }
        switch kind {
        case .zero: return .zero
        case .infinite: return .infinite
        case .fixed: return .fixed(seconds: try map.double(.valueSeconds, .nonNegative))
        case .exponential: return .exponential(meanSeconds: try map.double(.meanSeconds, .positive))
        case .lognormal:
            return .lognormal(meanSeconds: try map.double(.meanSeconds, .positive), cv: try map.double(.cv, .nonNegative))
        }
    }
}
