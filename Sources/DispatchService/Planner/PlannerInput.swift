import DispatchCore
import Foundation
import Hummingbird
import TripPlanner

/// The planner's request bodies as sent (every field optional, strings where a name or a time is
/// expected) and their validation into the stored types. Every refusal is a 422 `invalid-field`
/// problem whose `field` names the offending key (`window.end`, `forbidden_means[1]`).
enum PlannerInput {
    // MARK: - Validation

    /// The stored appointment for a body (id, owner and state are the caller's to set).
    /// - Throws: `Problem.invalidField` naming the first bad field.
    static func appointment(_ body: AppointmentBody, id: Int, owner: Int, city: CityGeometry) throws -> PlannerAppointment {
        let title = body.title ?? "appointment"
        guard (1...200).contains(title.unicodeScalars.count) else { throw Problem.invalidField("title", "must be 1–200 characters") }
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
            guard (1...60).contains(template.unicodeScalars.count) else { throw Problem.invalidField("template", "must be 1–60 characters") }
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
            guard (1...60).contains(name.unicodeScalars.count) else {
                throw Problem.invalidField("templates[\(index)].name", "must be 1–60 characters")
            }
            let disabled = try means(template.disabledMeans ?? [], field: "templates[\(index)].disabled_means")
            // A template named twice is one template: the means either entry switches off.
            if let earlier = profile.templates.firstIndex(where: { $0.name == name }) {
                profile.templates[earlier].disabledMeans = Array(Set(profile.templates[earlier].disabledMeans + disabled)).sorted()
            } else {
                profile.templates.append(.init(name: name, disabledMeans: disabled))
            }
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
        if let zone = body.timeZone {
            guard PlannerProfile.timeZoneNames.contains(zone) else {
                throw Problem.invalidField("time_zone", "unknown time zone '\(zone)' (an IANA name such as Europe/Rome, or UTC)")
            }
            profile.timeZone = zone
        }
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

    /// A date `YYYY-MM-DD` (RFC 3339 `full-date`, as the document's `format: date`).
    static func date(_ text: String?, field: String) throws -> CivilDate {
        guard let text else { throw Problem.invalidField(field, "missing") }
        guard let date = RFC3339.fullDate(text), let civil = try? CivilDate(year: date.year, month: date.month, day: date.day) else {
            throw Problem.invalidField(field, "expected a date YYYY-MM-DD, got '\(text)'")
        }
        return civil
    }

    /// A time of day `HH:MM` (two digits each, up to 24:00), as seconds and as normalised text.
    static func clock(_ text: String?, field: String) throws -> (seconds: Double, text: String) {
        guard let text else { throw Problem.invalidField(field, "missing") }
        // Exactly two digits, a colon, two digits: the document's pattern, nothing looser.
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"),
              bytes.enumerated().allSatisfy({ $0.offset == 2 || (0x30...0x39).contains($0.element) }),
              let seconds = ClockTime.seconds(text), seconds <= 86_400 else {
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
            guard let field = error.wireField else { throw Problem.badRequest("the body is not the expected JSON object") }
            throw Problem.invalidField(field, error.reason)
        }
    }
}
