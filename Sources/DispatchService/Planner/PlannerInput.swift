import DispatchCore
import Foundation
import Hummingbird
import TripPlanner

/// The planner's request bodies as sent (every field optional, strings where a name or a time is
/// expected) and their validation into the stored types. Every refusal is a 422 `invalid-field`
/// problem whose `field` names the offending key (`window.end`, `forbidden_means[1]`).
enum PlannerInput {
    struct AppointmentBody: Decodable {
        struct Window: Decodable { var start: String?; var end: String? }
        struct Repetition: Decodable { var weekdays: [String]?; var until: String? }
        var title: String?
        var date: String?
        var place: Point?
        var start: String?
        var end: String?
        var breaksAllowed: Bool?
        var window: Window?
        var durationMin: Double?
        var recurrence: Repetition?
        var passengers: Int?
        var allowedMeans: [String]?
        var forbiddenMeans: [String]?
        var template: String?
    }

    struct ProfileBody: Decodable {
        struct Template: Decodable { var name: String?; var disabledMeans: [String]? }
        var criterion: String?
        var disabledMeans: [String]?
        var templates: [Template]?
        var maxWalkM: Double?
        var noBikeInRain: Bool?
        var bikeUntil: String?
        var transitUntil: String?
        var ownsCar: Bool?
        var ownsBike: Bool?
        var seasonPass: Bool?
        var home: Point?
        var dayStart: String?
    }

    struct ConditionsBody: Decodable {
        struct StrikeHours: Decodable {
            var from: String?
            var until: String?

            enum CodingKeys: String, CodingKey { case from, until }

            /// Left out: from the start or until the end of the day; `null` is refused.
            init(from decoder: any Decoder) throws {
                let body = try decoder.container(keyedBy: CodingKeys.self)
                from = try body.decodeUnlessNull(String.self, forKey: .from)
                until = try body.decodeUnlessNull(String.self, forKey: .until)
            }
        }
        var rainHours: [Int]?
        var strikes: [StrikeHours]?

        enum CodingKeys: String, CodingKey { case rainHours, strikes }

        /// Both lists may be left out (none), but not sent as `null`.
        init(from decoder: any Decoder) throws {
            let body = try decoder.container(keyedBy: CodingKeys.self)
            rainHours = try body.decodeUnlessNull([Int].self, forKey: .rainHours)
            strikes = try body.decodeUnlessNull([StrikeHours].self, forKey: .strikes)
        }
    }

    struct PrimaryBody: Decodable { var appointmentId: Int? }

    // MARK: - Validation

    /// The stored appointment for a body (id, owner and state are the caller's to set).
    /// - Throws: `Problem.invalidField` naming the first bad field.
    static func appointment(_ body: AppointmentBody, id: Int, owner: Int, city: CityGeometry) throws -> PlannerAppointment {
        let title = (body.title ?? "appointment").trimmingCharacters(in: .whitespaces)
        guard (1...200).contains(title.count) else { throw Problem.invalidField("title", "must be 1–200 characters") }
        let date = try self.date(body.date, field: "date")
        let place = try position(body.place, field: "place", city: city)
        var appointment = PlannerAppointment(id: id, owner: owner, title: title, date: date, place: place,
                                             passengers: 0, forbiddenMeans: [], state: .unscheduled)
        if body.start != nil || body.end != nil {
            guard body.window == nil, body.durationMin == nil else {
                throw Problem.invalidField("window", "give start and end (fixed) or window and duration_min (flexible), not both")
            }
            let start = try clock(body.start, field: "start"), end = try clock(body.end, field: "end")
            guard end.seconds > start.seconds else { throw Problem.invalidField("end", "must be after start") }
            appointment.start = start.text
            appointment.end = end.text
            appointment.breaksAllowed = body.breaksAllowed ?? false
        } else {
            guard let window = body.window else {
                throw Problem.invalidField("start", "missing: give start and end (fixed) or window and duration_min (flexible)")
            }
            let from = try clock(window.start, field: "window.start"), to = try clock(window.end, field: "window.end")
            guard to.seconds > from.seconds else { throw Problem.invalidField("window.end", "must be after window.start") }
            guard let minutes = body.durationMin else { throw Problem.invalidField("duration_min", "missing") }
            guard minutes.isFinite, minutes > 0, minutes * 60 <= to.seconds - from.seconds else {
                throw Problem.invalidField("duration_min", "must be > 0 and fit in the window")
            }
            appointment.window = .init(start: from.text, end: to.text)
            appointment.durationMin = minutes
        }
        if let recurrence = body.recurrence {
            let names = recurrence.weekdays ?? []
            guard !names.isEmpty else { throw Problem.invalidField("recurrence.weekdays", "at least one weekday") }
            let weekdays = try names.enumerated().map { index, name in
                guard let day = Weekday(rawValue: name) else {
                    throw Problem.invalidField("recurrence.weekdays[\(index)]", "unknown weekday '\(name)' (monday … sunday)")
                }
                return day
            }
            var until: CivilDate?
            if recurrence.until != nil {
                until = try self.date(recurrence.until, field: "recurrence.until")
                guard until! >= date else { throw Problem.invalidField("recurrence.until", "must not be before date") }
            }
            appointment.recurrence = .init(weekdays: Array(Set(weekdays)).sorted { $0.index < $1.index }, until: until)
        }
        appointment.passengers = body.passengers ?? 0
        guard (0...8).contains(appointment.passengers) else { throw Problem.invalidField("passengers", "must be 0–8") }
        if let allowed = body.allowedMeans { appointment.allowedMeans = try means(allowed, field: "allowed_means") }
        appointment.forbiddenMeans = try means(body.forbiddenMeans ?? [], field: "forbidden_means")
        if let template = body.template {
            guard (1...60).contains(template.count) else { throw Problem.invalidField("template", "must be 1–60 characters") }
            appointment.template = template
        }
        return appointment
    }

    /// The stored preferences for a body; missing fields take their defaults.
    static func profile(_ body: ProfileBody, city: CityGeometry) throws -> PlannerProfile {
        var profile = PlannerProfile()
        if let name = body.criterion {
            guard let criterion = Criterion(rawValue: name) else {
                throw Problem.invalidField("criterion", "unknown criterion '\(name)' (fastest, cheapest, greenest)")
            }
            profile.criterion = criterion
        }
        profile.disabledMeans = try means(body.disabledMeans ?? [], field: "disabled_means")
        for (index, template) in (body.templates ?? []).enumerated() {
            let name = template.name ?? ""
            guard (1...60).contains(name.count) else { throw Problem.invalidField("templates[\(index)].name", "must be 1–60 characters") }
            guard !profile.templates.contains(where: { $0.name == name }) else {
                throw Problem.invalidField("templates[\(index)].name", "duplicate template '\(name)'")
            }
            profile.templates.append(.init(name: name, disabledMeans: try means(template.disabledMeans ?? [],
                                                                               field: "templates[\(index)].disabled_means")))
        }
        if let walk = body.maxWalkM {
            guard walk.isFinite, (0...100_000).contains(walk) else { throw Problem.invalidField("max_walk_m", "must be 0–100000 metres") }
            profile.maxWalkM = walk
        }
        profile.noBikeInRain = body.noBikeInRain ?? true
        if body.bikeUntil != nil { profile.bikeUntil = try clock(body.bikeUntil, field: "bike_until").text }
        if body.transitUntil != nil { profile.transitUntil = try clock(body.transitUntil, field: "transit_until").text }
        profile.ownsCar = body.ownsCar ?? false
        profile.ownsBike = body.ownsBike ?? false
        profile.seasonPass = body.seasonPass ?? false
        if body.home != nil { profile.home = try position(body.home, field: "home", city: city) }
        if body.dayStart != nil { profile.dayStart = try clock(body.dayStart, field: "day_start").text }
        return profile
    }

    /// The stored conditions of a day.
    static func conditions(_ body: ConditionsBody) throws -> CityDayConditions {
        var conditions = CityDayConditions()
        for (index, hour) in (body.rainHours ?? []).enumerated() {
            guard (0...23).contains(hour) else { throw Problem.invalidField("rain_hours[\(index)]", "must be an hour 0–23") }
            if !conditions.rainHours.contains(hour) { conditions.rainHours.append(hour) }
        }
        conditions.rainHours.sort()
        for (index, strike) in (body.strikes ?? []).enumerated() {
            let from = try strike.from.map { _ in try clock(strike.from, field: "strikes[\(index)].from") }
            let until = try strike.until.map { _ in try clock(strike.until, field: "strikes[\(index)].until") }
            if let from, let until, until.seconds <= from.seconds {
                throw Problem.invalidField("strikes[\(index)].until", "must be after from")
            }
            conditions.strikes.append(.init(from: from?.text, until: until?.text))
        }
        return conditions
    }

    // MARK: - Fields

    /// A date `YYYY-MM-DD`.
    static func date(_ text: String?, field: String) throws -> CivilDate {
        guard let text else { throw Problem.invalidField(field, "missing") }
        do { return try CivilDate(parsing: text) } catch { throw Problem.invalidField(field, "\(error)") }
    }

    /// A time of day `HH:MM` (up to 24:00), as seconds and as normalised text.
    static func clock(_ text: String?, field: String) throws -> (seconds: Double, text: String) {
        guard let text else { throw Problem.invalidField(field, "missing") }
        guard let seconds = ClockTime.seconds(text), seconds <= 86_400 else {
            throw Problem.invalidField(field, "expected a time HH:MM between 00:00 and 24:00, got '\(text)'")
        }
        return (seconds, ClockTime.format(seconds))
    }

    static func position(_ point: Point?, field: String, city: CityGeometry) throws -> Point {
        guard let point else { throw Problem.invalidField(field, "missing") }
        guard point.x.isFinite, point.y.isFinite, city.contains(point.position) else {
            throw Problem.invalidField(field, "outside the city (0–\(Int(city.width)) × 0–\(Int(city.height)) m)")
        }
        return point
    }

    static func means(_ names: [String], field: String) throws -> [TravelMeans] {
        var result: [TravelMeans] = []
        for (index, name) in names.enumerated() {
            guard let means = TravelMeans(rawValue: name) else {
                let known = TravelMeans.allCases.map(\.rawValue).joined(separator: ", ")
                throw Problem.invalidField("\(field)[\(index)]", "unknown means '\(name)' (\(known))")
            }
            if !result.contains(means) { result.append(means) }
        }
        return result.sorted()
    }
}

extension Problem {
    /// 422 `invalid-field`: the request's `field` is missing or wrong, and why.
    static func invalidField(_ field: String, _ reason: String) -> Problem {
        Problem(.unprocessableContent, "invalid-field", detail: "\(field): \(reason)", field: field)
    }
}

extension Weekday {
    /// 0 = Monday.
    var index: Int { Weekday.allCases.firstIndex(of: self)! }
}

extension Request {
    /// Decodes a planner body; a value of the wrong JSON type is an `invalid-field` problem naming it.
    func decodePlanner<T: Decodable>(_ type: T.Type, context: ServiceRequestContext) async throws -> T {
        do {
            return try await context.requestDecoder.decode(type, from: self, context: context)
        } catch let error as DecodingError {
            let path: [any CodingKey]
            switch error {
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): path = c.codingPath
            @unknown default: path = []
            }
            guard !path.isEmpty else { throw Problem.badRequest("the body is not the expected JSON object") }
            let field = path.map { $0.intValue.map { "[\($0)]" } ?? ".\(snakeCase($0.stringValue))" }.joined()
            throw Problem.invalidField(String(field.drop { $0 == "." }), "wrong type")
        }
    }
}

/// `durationMin` → `duration_min` (the wire name of a decoded key).
private func snakeCase(_ name: String) -> String {
    var result = ""
    for character in name {
        if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
    }
    return result
}
