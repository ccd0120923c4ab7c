import DispatchCore
import Foundation
import TripPlanner

/// The trip planner inside the service: a customer's stored appointments and preferences, the
/// city's stored day conditions, planned on request by `DayPlanner` through the dispatch host.
///
/// Invariant: nothing planned is stored — a day's schedule is computed on every read from the
/// stored state, so a changed appointment, preference, weather or strike shows at the next read.
/// Every appointment is seen only by its owner; another owner's id is `unknown-appointment` (404).
///
/// ```swift
/// let planner = PlannerService(store: InMemoryPlannerStore(), host: host, transit: nil)
/// let day = try await planner.schedule(owner: 2, date: try CivilDate(parsing: "2025-03-14"))
/// ```
struct PlannerService: Sendable {
    let store: any PlannerStore
    let host: DispatchHost
    /// Public transport; nil = no transit mode.
    let transit: PlannerTransit?

    /// A planned day and what it was planned from.
    struct Schedule: Sendable {
        var plan: DayPlan
        var appointments: [PlannerAppointment]
        var conditions: CityDayConditions
        /// Seconds since 1970 at the day's origin in the user's time zone (local midnight, or noon minus
        /// 12 h on a daylight-saving change day), and when it was planned.
        var midnight: Double
        var now: Double
    }

    // MARK: - Appointments

    /// The owner's appointment `id`.
    /// - Throws: 404 `unknown-appointment` when it does not exist or is another owner's.
    func appointment(_ id: Int, owner: Int) async throws -> PlannerAppointment {
        guard let appointment = try await store.appointment(id: id), appointment.owner == owner else {
            throw Problem(.notFound, "unknown-appointment", detail: "no appointment \(id)")
        }
        return appointment
    }

    /// The owner's appointments, with an occurrence on `date` when given, states as of now.
    func appointments(owner: Int, on date: CivilDate?) async throws -> [PlannerAppointment] {
        let now = host.clock.now()
        let zone = try await timeZone(owner: owner)
        return try await store.appointments(owner: owner)
            .filter { date == nil || $0.falls(on: date!) }
            .map { var shown = $0; shown.state = $0.state(at: now, in: zone); return shown }
    }

    /// The owner's time zone: their preference, else the transit feed's, else UTC.
    func timeZone(owner: Int) async throws -> TimeZone {
        let fallback = transit?.timeZone ?? TimeZone(identifier: "UTC")!
        return try await store.profile(owner: owner)?.zone(fallback: fallback) ?? fallback
    }

    /// Cancels the owner's appointment: it is never planned again.
    /// - Throws: 409 `illegal-appointment-state` when it is already cancelled or archived.
    func cancel(_ id: Int, owner: Int) async throws -> PlannerAppointment {
        var appointment = try await appointment(id, owner: owner)
        let state = appointment.state(at: host.clock.now(), in: try await timeZone(owner: owner))
        guard state != .cancelled, state != .archived else {
            throw Problem(.conflict, "illegal-appointment-state", detail: "appointment \(id) is \(state.rawValue)")
        }
        appointment.state = .cancelled
        try await store.updateAppointment(appointment)
        return appointment
    }

    // MARK: - The day

    /// Plans the owner's day from what is stored now.
    /// - Throws: 409 `home-not-set` before the owner's preferences name a home.
    func schedule(owner: Int, date: CivilDate) async throws -> Schedule {
        let profile = try await store.profile(owner: owner) ?? PlannerProfile()
        guard let home = profile.home else {
            throw Problem(.conflict, "home-not-set", detail: "set home with PUT /v1/planner/preferences before planning a day")
        }
        let stored = try await store.appointments(owner: owner)
        let cityDay = try await store.conditions(on: date) ?? CityDayConditions()
        let (weather, strikes) = cityDay.model(on: date)
        let primaries = try await store.primaries(owner: owner, on: date)
        let conditions = DayConditions(
            date: date, home: home.position, dayStart: ClockTime.seconds(profile.dayStart) ?? 6 * 3600,
            ownsCar: profile.ownsCar, ownsBike: profile.ownsBike, seasonPass: profile.seasonPass, weather: weather,
            strikes: strikes, preferences: profile.preferences,
            primaries: Set(primaries.map { AppointmentID(String($0)) }))
        let origin = date.origin(in: profile.zone(fallback: transit?.timeZone ?? TimeZone(identifier: "UTC")!))
        // A feed whose timetable cannot be built for this date plans without transit, like no feed.
        let network = try? transit?.network(on: date, origin: origin)
        let plan = await host.plan(DayPlanJob(appointments: stored.map(\.appointment), conditions: conditions,
                                              criterion: profile.criterion, transit: network, midnight: origin))
        return Schedule(plan: plan, appointments: stored, conditions: cityDay, midnight: origin, now: await host.now)
    }

    /// Makes `id` the primary event of its day: overlapping fixed appointments give way to it
    /// (and lose an earlier primary choice).
    /// - Throws: 404 for another owner's id; 422 `invalid-field` when it has no occurrence on `date`.
    func choosePrimary(_ id: Int, owner: Int, date: CivilDate) async throws {
        let chosen = try await appointment(id, owner: owner)
        guard chosen.falls(on: date) else {
            throw Problem.invalidField("appointment_id", "appointment \(id) does not take place on \(date)")
        }
        var primaries = try await store.primaries(owner: owner, on: date)
        let model = chosen.appointment
        for other in try await store.appointments(owner: owner) where other.id != id && other.falls(on: date) {
            if overlaps(model, other.appointment) { primaries.remove(other.id) }
        }
        primaries.insert(id)
        try await store.savePrimaries(primaries, owner: owner, on: date)
    }

    private func overlaps(_ a: Appointment, _ b: Appointment) -> Bool {
        guard case .fixed(let s1, let e1, _) = a.timing, case .fixed(let s2, let e2, _) = b.timing else { return false }
        return s1 < e2 && s2 < e1
    }
}
