import DispatchCore

/// The planner's request bodies as sent: every field optional, strings where a name or a time is
/// expected; `PlannerInput` validates them into the stored types.
///
/// Invariant: a field left out is nil, but a field sent as `null` is a decoding error naming it (the
/// OpenAPI document declares no nullable field), so `decodePlanner` answers 422 `invalid-field`.
extension PlannerInput {
    struct AppointmentBody: Decodable {
        struct Window: Decodable {
            @Omittable var start: String?
            @Omittable var end: String?
        }

        struct Repetition: Decodable {
            @Omittable var weekdays: [String]?
            @Omittable var until: String?
        }

        @Omittable var title: String?
        @Omittable var date: String?
        @Omittable var place: Point?
        @Omittable var start: String?
        @Omittable var end: String?
        @Omittable var breaksAllowed: Bool?
        @Omittable var window: Window?
        @Omittable var durationMin: Double?
        @Omittable var recurrence: Repetition?
        @Omittable var passengers: Int?
        @Omittable var allowedMeans: [String]?
        @Omittable var forbiddenMeans: [String]?
        @Omittable var template: String?
    }

    struct ProfileBody: Decodable {
        struct Template: Decodable {
            @Omittable var name: String?
            @Omittable var disabledMeans: [String]?
        }

        @Omittable var criterion: String?
        @Omittable var disabledMeans: [String]?
        @Omittable var templates: [Template]?
        @Omittable var maxWalkM: Double?
        @Omittable var noBikeInRain: Bool?
        @Omittable var bikeUntil: String?
        @Omittable var transitUntil: String?
        @Omittable var ownsCar: Bool?
        @Omittable var ownsBike: Bool?
        @Omittable var seasonPass: Bool?
        @Omittable var home: Point?
        @Omittable var dayStart: String?
        @Omittable var timeZone: String?
    }

    struct ConditionsBody: Decodable {
        /// Left out: from the start or until the end of the day.
        struct StrikeHours: Decodable {
            @Omittable var from: String?
            @Omittable var until: String?
        }

        /// Both lists may be left out (none).
        @Omittable var rainHours: [Int]?
        @Omittable var strikes: [StrikeHours]?
    }

    struct PrimaryBody: Decodable {
        @Omittable var appointmentId: Int?
    }
}
