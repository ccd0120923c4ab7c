// The fleet fixture shared by the DispatchDecision suite and the instruction-count gate.

import DispatchCore
import TestSupport

/// A core with N available taxis spread uniformly (seeded SplitMix64) over a 30 × 30 km city
/// of 2 km² zones (22 × 22), and a generator of request positions.
///
/// Invariant: between decisions every taxi is available again (each decision's request is
/// cancelled), so every decision sees the same fleet; the same seed gives the same fleet and
/// the same sequence of positions.
public final class DispatchFixture {
    public let core: DispatchCore
    public let city: CityGeometry
    public var random: SplitMix64
    /// Zones left empty of taxis (CAT variant); requests start in them.
    public let emptyZones: Set<Int>
    public var effects: [Effect] = []
    public var nextRequest = 1
    public var time: Double = 1000

    public init(policy: any DispatchPolicy, taxis: Int, seed: UInt64, emptyZoneShare: Double = 0) throws {
        city = try CityGeometry(width: 30_000, height: 30_000, zoneArea: 2_000_000)
        let travel = try GridTravelModel(metric: .manhattan, detourFactor: 1.3, speed: 8.3)
        core = try DispatchCore(city: city, travel: travel, policy: policy)
        random = SplitMix64(seed: seed)
        var empty = Set<Int>()
        if emptyZoneShare > 0 {
            let wanted = Int((Double(city.zoneCount) * emptyZoneShare).rounded())
            while empty.count < wanted { empty.insert(Int(random.next() % UInt64(city.zoneCount))) }
        }
        emptyZones = empty
        for slot in 0..<taxis {
            var position = randomPosition()
            while !empty.isEmpty, empty.contains(try city.zone(of: position).index) { position = randomPosition() }
            let driver = DriverID(slot)
            try core.handle(.addDriver(driver, taxiCode: "TX-\(slot)"), at: 0, into: &effects)
            try core.handle(.startShift(driver, at: position), at: 0, into: &effects)
            try core.handle(.setAvailable(driver, true), at: 0, into: &effects)
        }
        effects.removeAll()
        precondition(core.availableTaxiCount == taxis)
    }

    /// A place uniformly in the city's whole zones (redrawn in the edge strips no whole zone covers).
    public func randomPosition() -> Position {
        while true {
            let position = Position(x: random.nextUnit() * city.width, y: random.nextUnit() * city.height)
            if city.contains(position) { return position }
        }
    }

    /// A request origin: anywhere, or in an empty zone for the CAT variant.
    public func randomOrigin() throws -> Position {
        var position = randomPosition()
        while !emptyZones.isEmpty, !emptyZones.contains(try city.zone(of: position).index) { position = randomPosition() }
        return position
    }
}
