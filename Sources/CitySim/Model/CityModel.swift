import Foundation
import DispatchCore
import RoadNetwork

/// The simulated city built from a scenario: geometry and zones, the travel
/// model with its traffic profile, and where trips start and end.
///
/// Invariant: every place it draws lies inside the city; in a road city every place it draws
/// (origins, destinations, start places, drift targets) also lies on the road network: it is drawn
/// as on the grid, then snapped to the nearest road (`RoadRouter.snap`), and drawn again when the
/// snapped point falls outside every zone.
final class CityModel {
    let geometry: CityGeometry
    let travel: CityTravel
    /// The road network's router in a road city (nil on the grid).
    let roads: RoadRouter?
    let hotspots: [(name: String, centre: Position, radius: Double)]
    /// Where an idle taxi drifts to for each hotspot: its centre, snapped to the road in a road city.
    private let driftTargets: [Position]
    /// Trip lengths for the band are Manhattan distances (grid cities with `metric: manhattan`), else straight lines.
    private let manhattanTrips: Bool
    private let origins: DiscreteDistribution
    private let destinations: DiscreteDistribution
    private let minimumTripMetres: Double
    private let maximumTripMetres: Double
    /// The destination mixture's weights: "uniform in the zones", then one per hotspot.
    private let destinationWeights: [Double]
    /// The area of the city's zones, m².
    private let zonesArea: Double
    /// The smallest rectangle holding every zone (`ZoneLayout.bounds`, computed once: drawn places read it).
    private let zoneBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// Scratch buffer of `drawDestination`'s proposal weights (no allocation per trip).
    private var proposalWeights: [Double] = []
    /// Per hotspot: the disc lies wholly inside the zones of a grid city, so `drawHotspot` never draws again and
    /// `drawDestination` may screen its proposals by radius (`HotspotScreen`). False in a road city.
    private let screenableHotspots: [Bool]
    /// Whether `drawDestination` screens hotspot proposals by radius; off only in the tests that compare both paths.
    var screensHotspotProposals = true
    /// Hotspot proposals rejected by the radius screen so far (read by tests).
    private(set) var screenedProposals = 0

    init(scenario: Scenario) throws {
        let city = scenario.city
        geometry = try city.geometry()
        if let network = city.roadNetwork {
            // The graph was loaded when the scenario was read; each city contracts its own router (no shared query state).
            // Its nodes are laid in the zones' plane, where the network's box sits at `rectangleOrigin` (`fit`).
            let graph = try RoadNetworkLibrary.graph(path: network.osm).translated(by: city.rectangleOrigin)
            let router = RoadRouter(graph: graph, congestion: network.congestion)
            roads = router
            travel = .road(RoadTravelEstimator(router: router))
        } else {
            roads = nil
            travel = .grid(try GridTravelModel(
                metric: city.metric == .manhattan ? .manhattan : .euclidean, detourFactor: city.detourFactor,
                speedByHour: (0..<24).map { city.speedKmh(atHour: $0) / 3.6 }))
        }
        manhattanTrips = city.metric == .manhattan && roads == nil
        hotspots = city.hotspots.map { ($0.name, city.centre(of: $0), $0.radiusKm * 1000) }
        let geometry = geometry, roads = roads
        driftTargets = hotspots.map { spot in
            guard let snapped = roads?.snap(spot.centre).point, geometry.contains(snapped) else { return spot.centre }
            return snapped
        }
        // Index 0 is "anywhere in the city", then one entry per hotspot.
        origins = try DiscreteDistribution(weights: [city.uniformWeight] + city.hotspots.map(\.originWeight))
        destinationWeights = [city.uniformWeight] + city.hotspots.map(\.destinationWeight)
        destinations = try DiscreteDistribution(weights: destinationWeights)
        zonesArea = geometry.layout.servedArea
        zoneBounds = geometry.layout.bounds
        minimumTripMetres = scenario.demand.minTripKm * 1000
        maximumTripMetres = (scenario.demand.maxTripKm ?? .infinity) * 1000
        let layout = geometry.layout, bounds = zoneBounds
        screenableHotspots = hotspots.map { spot in
            roads == nil && HotspotScreen.discInside(layout, bounds: bounds, centre: spot.centre, radius: spot.radius)
        }
    }

    /// A trip origin.
    func drawOrigin(_ random: RandomStream) -> Position { draw(origins, random) }

    /// The index of the zone holding `place`, or 0 outside every zone (a place the core then refuses).
    func zoneIndex(of place: Position) -> Int { (try? geometry.zone(of: place))?.index ?? 0 }

    /// How many snapped points falling outside every zone are drawn again before one is kept off the road.
    static let snapAttempts = 1_000

    /// `draw()` on the road network: the drawn point snapped to the nearest road, drawn again while the
    /// snapped point lies outside every zone. On the grid, `draw()` as it is.
    @inline(__always)
    private func onRoad(_ draw: () -> Position) -> Position {
        guard let roads else { return draw() }
        var point = draw()
        for _ in 0..<Self.snapAttempts {
            let snapped = roads.snap(point).point
            if geometry.contains(snapped) { return snapped }
            point = draw()
        }
        return point  // a network with no road inside the zones; not reached with a sensible zone size
    }

    /// A given place (a replayed trip's, an OD-matrix draw's) on the road network: snapped to the nearest
    /// road when the snapped point is in the city, else kept as it is. On the grid, the place itself.
    func onRoad(_ place: Position) -> Position {
        guard let roads else { return place }
        let snapped = roads.snap(place).point
        return geometry.contains(snapped) ? snapped : place
    }

    /// How many proposals are drawn for one origin before the trip-length band is declared out of reach.
    static let destinationAttempts = 100_000

    /// The trip length in the city's metric (Manhattan or straight line, no detour factor), metres.
    func tripLength(from origin: Position, to destination: Position) -> Double {
        manhattanTrips ? origin.manhattanDistance(to: destination) : origin.euclideanDistance(to: destination)
    }

    /// A destination whose metric distance from `origin` lies in [`min_trip_km`, `max_trip_km`]:
    /// the destination distribution conditioned on that band, drawn exactly by rejection from a
    /// proposal that only covers the band's reach.
    ///
    /// The destination distribution is the mixture Σ wᵢ fᵢ of "uniform in the zones" and the hotspot
    /// discs. The proposal keeps each disc that can reach the band with its weight wᵢ (a disc wholly
    /// farther than `max_trip_km` has no mass in the band and is left out), and replaces the uniform
    /// part by "uniform in the square of half-side `max_trip_km` around the origin, within the zones'
    /// bounding rectangle" with weight w₀ · area(square ∩ rectangle) / area(zones). On the band that
    /// proposal's density equals the mixture's, so a proposal accepted when it lies in a zone and in
    /// the band is an exact draw of the conditioned distribution — and a trip of 1–4 km from a corner
    /// far from every hotspot no longer needs thousands of draws.
    ///
    /// In a road city each proposal is snapped to the road before the zone and band checks, so the band
    /// holds between the (snapped) origin and the snapped destination.
    ///
    /// - Throws: `TripLengthError` when the band has no mass from this origin or `destinationAttempts`
    ///   proposals all miss it; never a trip of the wrong length.
    func drawDestination(from origin: Position, _ random: RandomStream) throws(TripLengthError) -> Position {
        guard maximumTripMetres.isFinite || minimumTripMetres > 0 else { return draw(destinations, random) }
        let bounds = zoneBounds
        let reach = maximumTripMetres.isFinite ? maximumTripMetres : .infinity
        let square = (minX: max(bounds.minX, origin.x - reach), maxX: min(bounds.maxX, origin.x + reach),
                      minY: max(bounds.minY, origin.y - reach), maxY: min(bounds.maxY, origin.y + reach))
        let squareArea = max(0, square.maxX - square.minX) * max(0, square.maxY - square.minY)
        proposalWeights.removeAll(keepingCapacity: true)
        proposalWeights.append(destinationWeights[0] * squareArea / zonesArea)
        for (i, spot) in hotspots.enumerated() {
            let reachable = origin.euclideanDistance(to: spot.centre) - spot.radius <= reach
            proposalWeights.append(reachable ? destinationWeights[i + 1] : 0)
        }
        let total = proposalWeights.reduce(0, +)
        if total > 0 {
            for _ in 0..<Self.destinationAttempts {
                var u = random.uniform() * total, choice = 0
                while choice < proposalWeights.count - 1, u >= proposalWeights[choice] {
                    u -= proposalWeights[choice]
                    choice += 1
                }
                var destination: Position
                if choice == 0 {
                    destination = Position(x: square.minX + random.uniform() * (square.maxX - square.minX),
                                           y: square.minY + random.uniform() * (square.maxY - square.minY))
                    guard geometry.contains(destination) else { continue }
                } else if screensHotspotProposals && screenableHotspots[choice - 1] {
                    let spot = hotspots[choice - 1]
                    let u = random.uniform(), v = random.uniform()
                    let r = spot.radius * u.squareRoot()
                    // The same two draws `drawHotspot` makes (its disc is whole, so it never draws again), but a
                    // radius that keeps every point of its circle out of the band needs no angle.
                    if !HotspotScreen.circleMayMeetBand(origin: origin, centre: spot.centre, radius: r, manhattan: manhattanTrips,
                                                        minimum: minimumTripMetres, maximum: maximumTripMetres) {
                        screenedProposals &+= 1
                        continue
                    }
                    destination = HotspotScreen.point(centre: spot.centre, r: r, v: v)
                } else {
                    destination = drawHotspot(choice - 1, random)
                }
                if let roads {
                    destination = roads.snap(destination).point
                    guard geometry.contains(destination) else { continue }
                }
                let d = tripLength(from: origin, to: destination)
                if d >= minimumTripMetres && d <= maximumTripMetres { return destination }
            }
        }
        throw TripLengthError(origin: origin, minimumMetres: minimumTripMetres, maximumMetres: maximumTripMetres,
                              attempts: Self.destinationAttempts)
    }

    /// A place uniformly in the city (the whole zones): uniform in the zones' bounding rectangle, redrawn
    /// while outside every zone (only hexagons leave gaps along the edges); snapped in a road city.
    func drawUniform(_ random: RandomStream) -> Position { onRoad { drawUniformPlace(random) } }

    private func drawUniformPlace(_ random: RandomStream) -> Position {
        let b = zoneBounds
        while true {
            let p = Position(x: b.minX + random.uniform() * (b.maxX - b.minX), y: b.minY + random.uniform() * (b.maxY - b.minY))
            if geometry.contains(p) { return p }
        }
    }

    /// A start position near a hotspot chosen by origin weight (or anywhere).
    func drawStart(_ random: RandomStream, nearHotspots: Bool) -> Position {
        nearHotspots ? drawOrigin(random) : drawUniform(random)
    }

    /// Where an idle taxi drifts: the nearest hotspot's centre (on the road in a road city), if any.
    func nearestHotspot(to position: Position) -> Position? {
        hotspots.indices.min {
            hotspots[$0].centre.euclideanDistance(to: position) < hotspots[$1].centre.euclideanDistance(to: position)
        }.map { driftTargets[$0] }
    }

    private func draw(_ distribution: DiscreteDistribution, _ random: RandomStream) -> Position {
        onRoad {
            let choice = distribution.sample(using: random)
            guard choice > 0 else { return drawUniformPlace(random) }
            return drawHotspot(choice - 1, random)
        }
    }

    /// A place near hotspot `index`.
    private func drawHotspot(_ index: Int, _ random: RandomStream) -> Position {
        let spot = hotspots[index]
        // Uniform in the part of the disc inside the city's whole zones: points outside are drawn again,
        // not clipped (clipping would pile their probability onto the edges). The centre lies in a zone
        // (scenario validation).
        while true {
            let r = spot.radius * random.uniform().squareRoot()
            let p = HotspotScreen.point(centre: spot.centre, r: r, v: random.uniform())
            if geometry.contains(p) { return p }
        }
    }

    /// `p` moved into the city: clamped to the zones' bounding rectangle, then (hexagons' ragged edges) moved
    /// along the line towards the central zone's centre to the first point inside a zone (bisection, 40 steps).
    func clip(_ p: Position) -> Position {
        let b = zoneBounds
        let clamped = Position(x: min(max(p.x, b.minX), b.maxX), y: min(max(p.y, b.minY), b.maxY))
        if geometry.contains(clamped) { return clamped }
        let middle = Position(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2)
        let target = geometry.centre(of: (try? geometry.zone(of: middle)) ?? ZoneID(0))
        var outside = 0.0, inside = 1.0
        func at(_ t: Double) -> Position { Position(x: clamped.x + t * (target.x - clamped.x), y: clamped.y + t * (target.y - clamped.y)) }
        for _ in 0..<40 {
            let t = (outside + inside) / 2
            if geometry.contains(at(t)) { inside = t } else { outside = t }
        }
        return at(inside)
    }
}

/// No destination in the scenario's trip-length band could be drawn for an origin.
///
/// Invariant: `attempts` destinations were drawn from the destination distribution and every one was
/// closer than `minimumMetres` or farther than `maximumMetres` (metric distance) from `origin`.
struct TripLengthError: Error, CustomStringConvertible {
    let origin: Position
    let minimumMetres: Double, maximumMetres: Double
    let attempts: Int

    var description: String {
        let band = maximumMetres.isFinite
            ? "between demand.min_trip_km = \(minimumMetres / 1000) and demand.max_trip_km = \(maximumMetres / 1000) km"
            : "at least demand.min_trip_km = \(minimumMetres / 1000) km"
        return "no destination \(band) from the origin (\(origin.x), \(origin.y)) m in \(attempts) draws: "
            + "the trip-length band is out of reach of the destination distribution; widen it"
    }
}
