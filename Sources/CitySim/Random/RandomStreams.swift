/// The random streams of one simulation run, one per model component.
///
/// Each component draws only from its own stream, so e.g. a change in how
/// drivers behave leaves the sequence of arrivals untouched (common random
/// numbers across policies and sweeps).
///
/// Invariants: all streams share one (`seed`, `replication`); a name always
/// maps to the same stream object, created on first use, whose numbers depend
/// only on (`seed`, `replication`, name).
///
/// ```swift
/// let streams = RandomStreams(seed: 42, replication: 3)
/// let gap = streams.arrivals.exponential(mean: 60)
/// let fuel = streams.stream(named: "fuel").uniform()
/// ```
public final class RandomStreams {
    /// Stream names used by the city model's components.
    public enum Name {
        public static let arrivals = "arrivals"
        public static let places = "places"
        public static let driverBehaviour = "driverBehaviour"
        public static let rideTimes = "rideTimes"
        public static let patience = "patience"
        public static let reservations = "reservations"
    }

    /// The scenario seed.
    public let seed: UInt64
    /// The replication index.
    public let replication: Int

    private var streams: [String: RandomStream] = [:]

    /// Creates the stream set for replication `replication` of a scenario seeded with `seed`.
    public init(seed: UInt64, replication: Int = 0) {
        self.seed = seed
        self.replication = replication
    }

    /// When customers ask for taxis.
    public var arrivals: RandomStream { stream(named: Name.arrivals) }
    /// Where trips start and end.
    public var places: RandomStream { stream(named: Name.places) }
    /// Drivers' decisions: accepting offers, shifts, breaks.
    public var driverBehaviour: RandomStream { stream(named: Name.driverBehaviour) }
    /// Driving and ride durations.
    public var rideTimes: RandomStream { stream(named: Name.rideTimes) }
    /// How long customers wait before giving up.
    public var patience: RandomStream { stream(named: Name.patience) }
    /// Whether a customer reserves, and how far ahead: its own stream, so a reservation share
    /// above zero does not shift the arrivals of every later customer.
    public var reservations: RandomStream { stream(named: Name.reservations) }

    /// The stream called `name`, created on first use.
    ///
    /// - Complexity: O(1) amortised (a dictionary look-up).
    public func stream(named name: String) -> RandomStream {
        if let existing = streams[name] { return existing }
        let created = RandomStream(name: name, seed: seed, replication: replication)
        streams[name] = created
        return created
    }
}
