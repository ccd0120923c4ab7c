import Synchronization
import TripPlanner

/// A `PlannerStore` in memory, for tests: same contract, nothing survives the process.
final class InMemoryPlannerStore: PlannerStore {
    private struct State {
        var appointments: [Int: PlannerAppointment] = [:]
        var lastID = 0
        var profiles: [Int: PlannerProfile] = [:]
        var conditions: [CivilDate: CityDayConditions] = [:]
        var primaries: [String: Set<Int>] = [:]
        var bookings: [PlannerBooking] = []
    }

    private let state = Mutex(State())

    init() {}

    func insertAppointment(_ appointment: PlannerAppointment) async throws -> PlannerAppointment {
        state.withLock { s in
            s.lastID += 1
            var stored = appointment
            stored.id = s.lastID
            s.appointments[stored.id] = stored
            return stored
        }
    }

    func appointment(id: Int) async throws -> PlannerAppointment? { state.withLock { $0.appointments[id] } }

    func appointments(owner: Int) async throws -> [PlannerAppointment] {
        state.withLock { s in s.appointments.values.filter { $0.owner == owner }.sorted { $0.id < $1.id } }
    }

    func updateAppointment(_ appointment: PlannerAppointment) async throws {
        state.withLock { s in if s.appointments[appointment.id] != nil { s.appointments[appointment.id] = appointment } }
    }

    func deleteAppointment(id: Int) async throws { _ = state.withLock { $0.appointments.removeValue(forKey: id) } }

    func profile(owner: Int) async throws -> PlannerProfile? { state.withLock { $0.profiles[owner] } }

    func saveProfile(_ profile: PlannerProfile, owner: Int) async throws { state.withLock { $0.profiles[owner] = profile } }

    func conditions(on date: CivilDate) async throws -> CityDayConditions? { state.withLock { $0.conditions[date] } }

    func saveConditions(_ conditions: CityDayConditions, on date: CivilDate) async throws {
        state.withLock { $0.conditions[date] = conditions }
    }

    func primaries(owner: Int, on date: CivilDate) async throws -> Set<Int> {
        state.withLock { $0.primaries["\(owner) \(date)"] ?? [] }
    }

    func savePrimaries(_ primaries: Set<Int>, owner: Int, on date: CivilDate) async throws {
        state.withLock { $0.primaries["\(owner) \(date)"] = primaries }
    }

    func bookings(owner: Int, on date: CivilDate) async throws -> [PlannerBooking] {
        state.withLock { s in s.bookings.filter { $0.owner == owner && $0.date == date } }
    }

    func insertBooking(_ booking: PlannerBooking) async throws { state.withLock { $0.bookings.append(booking) } }
}
