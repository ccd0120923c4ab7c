import Foundation

/// One simulated city and its day(s) of demand, as read from a scenario YAML file.
///
/// The doc comments of this type and of its nested types are the schema of
/// the file: each names the YAML key, its unit, meaning, default and range.
/// Keys not listed are errors; keys left out take their default. Times of day
/// are hours since midnight of the simulated day; the simulation starts at
/// 00:00 of day 0, and hourly profiles and shifts repeat every day.
///
/// ```swift
/// let scenario = try Scenario.load(path: "Scenarios/rush-hour.yaml", overrides: ["fleet.scale=1.2"])
/// print(scenario.name, scenario.canonicalHash)
/// ```
public struct Scenario: Sendable, Equatable, Encodable {
    /// `name` — short identifier used in result folders and reports. Required, non-empty string.
    public var name: String
    /// `description` — free text for people. Optional, default "".
    public var description: String
    /// `seed` — master seed of every random stream. Integer in [0, 2^64 - 1], default 1.
    public var seed: UInt64
    /// `duration_hours` — simulated horizon in hours from 00:00. Number > 0, default 24.
    public var durationHours: Double
    /// `warmup_hours` — requests made before this time (hours) are simulated but not counted.
    /// Number >= 0 and < `duration_hours`, default 0.
    public var warmupHours: Double
    /// `city` — geometry, zones, speeds and hotspots. Required.
    public var city: City
    /// `demand` — how customers arrive and behave. Required.
    public var demand: Demand
    /// `fleet` — taxis and their shifts. Required.
    public var fleet: Fleet
    /// `drivers` — how drivers answer offers and rest. Optional, every key defaulted.
    public var drivers: Drivers
    /// `dispatch` — the dispatch policy and the rules D4–D13 it applies. Optional, every key defaulted.
    public var dispatch: Dispatch
    /// `validation` — textbook-queue mode for checking the simulator against M/M/c/c and M/M/c. Optional, default off.
    public var validation: Validation
    /// `planner` — trip-planner users whose planned taxi legs join the demand. Optional, default none.
    public var planner: Planner?

    enum CodingKeys: String, ScenarioKeys {
        case name, description, seed
        case durationHours = "duration_hours"
        case warmupHours = "warmup_hours"
        case city, demand, fleet, drivers, dispatch, validation, planner
    }
}

// MARK: - Decoding

extension Scenario {
    static func read(_ reader: ScenarioReader) throws(ScenarioError) -> Scenario {
        let map = try reader.mapping(CodingKeys.self)
        let name = try map.string(.name)
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw map.error(at: .name, "expected a non-empty string")
        }
        let duration = try map.double(.durationHours, default: 24, .positive)
        let warmup = try map.double(.warmupHours, default: 0, .nonNegative)
        guard warmup < duration else {
            throw map.error(at: .warmupHours, "expected a number < duration_hours (\(format(duration))), got \(format(warmup))")
        }
        let city = try map.required(.city) { (r) throws(ScenarioError) in try City.read(r) }
        let demand = try map.required(.demand) { (r) throws(ScenarioError) in try Demand.read(r, city: city, durationHours: duration) }
        let fleet = try map.required(.fleet) { (r) throws(ScenarioError) in try Fleet.read(r, city: city) }
        let drivers = try Drivers.read(map.section(.drivers))
        let dispatch = try Dispatch.read(map.section(.dispatch), city: city)
        let validation = try Validation.read(map.section(.validation))
        let planner = try map.optional(.planner) { (r) throws(ScenarioError) in try Planner.read(r) }
        return Scenario(
            name: name,
            description: try map.string(.description, default: ""),
            seed: try map.optional(.seed, default: 1) { (r) throws(ScenarioError) in try r.uint64() },
            durationHours: duration, warmupHours: warmup,
            city: city, demand: demand, fleet: fleet, drivers: drivers, dispatch: dispatch, validation: validation,
            planner: planner)
    }
}
