/// A driver (and their taxi) as the host knows them: a licence record in the
/// service, an index in the simulator. Chosen by the host; unique per core.
public struct DriverID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: DriverID, b: DriverID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "driver \(rawValue)" }
}

/// An immediate request or a reservation. Chosen by the host; unique per core.
public struct RequestID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: RequestID, b: RequestID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "request \(rawValue)" }
}

/// A customer account (registered or a simulated person).
public struct CustomerID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "customer \(rawValue)" }
}

/// Who files a bad-evaluation report after a ride (D13).
public enum Reporter: Hashable, Sendable {
    /// The customer reports the driver of the ride.
    case customer(CustomerID)
    /// The driver reports the customer of the ride.
    case driver(DriverID)
}
