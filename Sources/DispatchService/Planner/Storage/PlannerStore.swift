import TripPlanner

/// Durable storage of the trip planner: appointments, preferences, the city's day conditions,
/// the primary choices and the taxi bookings made from plans. Separate from `DispatchStore` (the
/// planner is not part of the dispatch command log); the SQLite implementation shares its file.
///
/// Implementations: `SQLitePlannerStore` (the service's database, own migration) and
/// `InMemoryPlannerStore` (tests).
///
/// Contract: a write returns once durable; `insertAppointment` gives ids that are never reused;
/// reads return what the last write stored.
protocol PlannerStore: Sendable {
    // MARK: Appointments

    /// Stores a new appointment and returns it with its id.
    func insertAppointment(_ appointment: PlannerAppointment) async throws -> PlannerAppointment
    func appointment(id: Int) async throws -> PlannerAppointment?
    /// The owner's appointments, by id.
    func appointments(owner: Int) async throws -> [PlannerAppointment]
    /// Replaces the appointment with the same id.
    func updateAppointment(_ appointment: PlannerAppointment) async throws
    func deleteAppointment(id: Int) async throws

    // MARK: Preferences

    func profile(owner: Int) async throws -> PlannerProfile?
    func saveProfile(_ profile: PlannerProfile, owner: Int) async throws

    // MARK: The city's day

    func conditions(on date: CivilDate) async throws -> CityDayConditions?
    func saveConditions(_ conditions: CityDayConditions, on date: CivilDate) async throws

    // MARK: Primary choices and bookings

    /// The appointments the owner chose as primary among overlapping ones on `date`.
    func primaries(owner: Int, on date: CivilDate) async throws -> Set<Int>
    func savePrimaries(_ primaries: Set<Int>, owner: Int, on date: CivilDate) async throws
    /// The taxi rides booked from the owner's plans of `date`.
    func bookings(owner: Int, on date: CivilDate) async throws -> [PlannerBooking]
    func insertBooking(_ booking: PlannerBooking) async throws
}

/// A taxi sub-route of a day's plan that was booked with the dispatch host.
///
/// Invariant: `ride` is the id of a request or reservation of `owner` in the dispatch core.
struct PlannerBooking: Codable, Sendable {
    var owner: Int
    var date: CivilDate
    /// Seconds since midnight of `date`.
    var departure: Double
    var origin: Point
    var destination: Point
    var ride: Int

    /// Whether it books the same sub-route (same ends, departure within a minute).
    func matches(departure: Double, origin: Point, destination: Point) -> Bool {
        abs(self.departure - departure) < 60 && self.origin.position == origin.position
            && self.destination.position == destination.position
    }
}
