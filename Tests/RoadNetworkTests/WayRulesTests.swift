import Testing
@testable import RoadNetwork

/// Which ways cars use, in which directions, at which speed.
@Suite struct WayRulesTests {
    func rules(_ tags: [String: String]) -> WayRules? { try? WayRules.evaluate(tags).get() }
    func exclusion(_ tags: [String: String]) -> WayRules.Exclusion? {
        if case .failure(let why) = WayRules.evaluate(tags) { return why }
        return nil
    }

    @Test("oneway=yes drives along the node order, -1 against it, no both ways")
    func explicitOneWay() {
        #expect(rules(["highway": "residential", "oneway": "yes"])?.direction == .forward)
        #expect(rules(["highway": "residential", "oneway": "1"])?.direction == .forward)
        #expect(rules(["highway": "residential", "oneway": "-1"])?.direction == .backward)
        #expect(rules(["highway": "residential", "oneway": "no"])?.direction == .both)
        #expect(rules(["highway": "residential"])?.direction == .both)
    }

    @Test("motorways and roundabouts are one-way unless tagged otherwise")
    func impliedOneWay() {
        #expect(rules(["highway": "motorway"])?.direction == .forward)
        #expect(rules(["highway": "primary", "junction": "roundabout"])?.direction == .forward)
        #expect(rules(["highway": "motorway", "oneway": "no"])?.direction == .both)
        #expect(rules(["highway": "motorway_link"])?.direction == .both)
    }

    @Test("reversible one-ways are left out")
    func reversible() {
        #expect(exclusion(["highway": "primary", "oneway": "reversible"]) == .reversible)
    }

    @Test("footways, cycleways and tracks are not for cars")
    func notForCars() {
        for highway in ["footway", "cycleway", "path", "track", "steps", "pedestrian", "construction"] {
            #expect(exclusion(["highway": highway]) == .notForCars, "\(highway)")
        }
    }

    @Test("the most specific access tag decides")
    func accessHierarchy() {
        #expect(exclusion(["highway": "service", "access": "private"]) == .noAccess)
        #expect(rules(["highway": "service", "access": "no", "motor_vehicle": "yes"]) != nil)
        #expect(exclusion(["highway": "residential", "access": "yes", "motorcar": "no"]) == .noAccess)
        #expect(exclusion(["highway": "residential", "vehicle": "no"]) == .noAccess)
        #expect(rules(["highway": "residential", "access": "destination"]) != nil)
    }

    @Test("maxspeed sets the speed, else the class default; direction-specific tags win")
    func speeds() {
        #expect(rules(["highway": "primary", "maxspeed": "30"])?.forwardKmh == 30)
        #expect(rules(["highway": "primary"])?.forwardKmh == RoadClass.primary.defaultSpeedKmh)
        #expect(rules(["highway": "primary", "maxspeed": "none"])?.forwardKmh == RoadClass.primary.defaultSpeedKmh)
        let split = rules(["highway": "primary", "maxspeed": "50", "maxspeed:backward": "30"])
        #expect(split?.forwardKmh == 50 && split?.backwardKmh == 30)
    }

    @Test("areas are not roads")
    func areas() {
        #expect(exclusion(["highway": "service", "area": "yes"]) == .area)
    }
}
