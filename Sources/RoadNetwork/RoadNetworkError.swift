/// Everything that can go wrong while reading a road network or configuring its travel times.
///
/// Invariant: every case names where the problem is (a file, or a field) and why, so the
/// message alone tells a user what to fix.
public enum RoadNetworkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file's bytes do not follow its format.
    case malformedFile(file: String, reason: String)
    /// The file is well formed but needs something this reader does not do.
    case unsupportedFeature(file: String, feature: String)
    /// A configuration value (congestion profile, speeds…) is out of range.
    case invalidConfiguration(field: String, reason: String)
    /// The network has nothing drivable left after filtering.
    case emptyNetwork(file: String, reason: String)

    public var description: String {
        switch self {
        case let .malformedFile(file, reason): return "\(file): malformed: \(reason)"
        case let .unsupportedFeature(file, feature): return "\(file): unsupported: \(feature)"
        case let .invalidConfiguration(field, reason): return "\(field): \(reason)"
        case let .emptyNetwork(file, reason): return "\(file): no drivable network: \(reason)"
        }
    }
}
