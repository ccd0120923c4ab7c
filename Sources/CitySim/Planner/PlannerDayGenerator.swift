import DispatchCore
import Foundation
import TripPlanner

/// One planner user's day before planning: conditions, appointments and criterion.
struct PlannerDay {
    var conditions: DayConditions
    var appointments: [Appointment]
    var criterion: Criterion
}

/// Draws planner users' days from the scenario's profiles; `conditions.now` is when the user plans.
///
/// Invariant: every draw comes from the stream handed to `draw`, in a fixed order (profile, home,
/// car, bike, season pass, criterion, day start, then per appointment: presence, place, times),
/// so the same stream state gives the same day.
struct PlannerDayGenerator {
    let planner: Scenario.Planner
    let city: CityModel
    private let profiles: DiscreteDistribution
    private let criteria: [DiscreteDistribution]

    init(planner: Scenario.Planner, city: CityModel) throws {
        self.planner = planner
        self.city = city
        profiles = try DiscreteDistribution(weights: planner.profiles.map(\.share))
        criteria = try planner.profiles.map { try DiscreteDistribution(weights: $0.criteria.weights) }
    }

    func draw(_ random: RandomStream) throws -> PlannerDay {
        let index = profiles.sample(using: random)
        let profile = planner.profiles[index]
        let home = city.drawUniform(random)
        var conditions = DayConditions(date: planner.date, home: home)
        conditions.ownsCar = random.bernoulli(profile.ownsCar)
        conditions.ownsBike = random.bernoulli(profile.ownsBike)
        conditions.seasonPass = random.bernoulli(profile.seasonPass)
        let criterion = Criterion.allCases[criteria[index].sample(using: random)]
        conditions.dayStart = Self.fiveMinutes(uniform(profile.dayStartHours, random))
        conditions.now = (profile.planAtHours ?? planner.planAtHours) * 3600
        conditions.weather = Weather(rainyHours: Set(planner.rainHours))
        if let strike = planner.strike {
            conditions.strikes = [Strike(date: planner.date, from: strike.fromHours * 3600, until: strike.untilHours * 3600)]
        }
        conditions.preferences.disabledMeans = Set(planner.disabledMeans).union(profile.disabledMeans)
        conditions.preferences.maximumWalkingDistance = planner.maxWalkKm * 1000

        var places: [String: Position] = [:]
        var appointments: [Appointment] = []
        for template in profile.appointments {
            guard random.bernoulli(template.probability) else { continue }
            let place: Position
            if let near = template.near {
                place = around(places[near] ?? home, radius: template.radiusKm * 1000, random)
            } else {
                place = try city.drawDestination(from: home, random)
            }
            places[template.title] = place
            let timing: AppointmentTiming
            if let start = template.startHours, let hours = template.hours {
                let from = Self.fiveMinutes(uniform(start, random))
                let length = max(300, Self.fiveMinutes(uniform(hours, random)))
                timing = .fixed(start: from, end: from + length, breaksAllowed: template.breaks)
            } else {
                let window = template.windowHours ?? 0...24
                timing = .flexible(windowStart: window.lowerBound * 3600, windowEnd: window.upperBound * 3600,
                                   duration: (template.minutes ?? 30) * 60)
            }
            appointments.append(Appointment(id: AppointmentID(template.title), title: template.title, place: place,
                                            date: planner.date, timing: timing, disabledMeans: Set(template.disabledMeans)))
        }
        return PlannerDay(conditions: conditions, appointments: appointments, criterion: criterion)
    }

    /// Hours uniformly in `range` (no draw when it is one number), in seconds.
    private func uniform(_ range: ClosedRange<Double>, _ random: RandomStream) -> Double {
        guard range.upperBound > range.lowerBound else { return range.lowerBound * 3600 }
        return random.uniform(in: range.lowerBound..<range.upperBound) * 3600
    }

    /// A place uniformly within `radius` (straight line) of `centre`, clipped to the city.
    private func around(_ centre: Position, radius: Double, _ random: RandomStream) -> Position {
        let r = radius * random.uniform().squareRoot(), angle = 2 * Double.pi * random.uniform()
        return city.clip(Position(x: centre.x + r * cos(angle), y: centre.y + r * sin(angle)))
    }

    static func fiveMinutes(_ seconds: Double) -> Double { (seconds / 300).rounded() * 300 }
}
