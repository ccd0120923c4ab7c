import Testing
@testable import CitySim

/// The HTML report: its sections, self-containment, determinism and robustness on empty data.
@Suite struct ReportPageTests {
    /// A one-hour version of smoke: a 3 × 3 zone city, 30 taxis, ~150 requests.
    static let yaml = """
    name: report-tiny
    description: One hour of a small city for the report tests.
    seed: 7
    duration_hours: 1
    warmup_hours: 0.1

    city:
      width_km: 4
      height_km: 4
      zone: { area_km2: 2 }
      metric: manhattan
      detour_factor: 1.2
      speed_kmh: 30

    demand:
      requests_per_hour: 150
      min_trip_km: 0.5
      patience: { kind: zero }

    fleet:
      shifts:
        - { name: all-day, start: "00:00", end: "24:00", taxis: 30 }

    drivers:
      accept_probability: 0.95
      response_time: { kind: lognormal, mean_s: 8, cv: 0.6 }
      never_answer_share: 0.01

    dispatch:
      policy: zone-fifo
    """

    static func tinyResult() throws -> RunResult {
        let scenario = try Scenario.load(yaml: yaml, file: "report-tiny.yaml")
        return try CitySimulation(scenario: scenario).run()
    }

    /// The same run with every ride unserved and no earnings: the page must still render.
    static func emptyResult(from result: RunResult) -> RunResult {
        var summary = result.summary
        summary.requests = .init()
        summary.waitS = .init()
        summary.assignS = .init()
        summary.fairness = .init()
        summary.throughputPerHour = 0
        for i in summary.perHour.indices {
            summary.perHour[i].demand = 0
            summary.perHour[i].served = 0
            summary.perHour[i].meanWaitS = 0
        }
        for i in summary.perZone.indices {
            summary.perZone[i].requests = 0
            summary.perZone[i].meanWaitS = 0
            summary.perZone[i].p90WaitS = 0
        }
        let drivers = result.drivers.map {
            RunResult.DriverRow(id: $0.id, rides: 0, earnings: 0, shiftHours: $0.shiftHours, busyHours: 0, queueWaitHours: 0)
        }
        return RunResult(summary: summary, rides: .init(records: RideLog().sealedRecords()), drivers: drivers, city: result.city)
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func pageHasTheSixSectionsAndOneSVGPerChart() throws {
        let result = try Self.tinyResult()
        #expect(result.summary.requests.served > 0)
        let page = ReportPage.html(for: result)
        #expect(page.hasPrefix("<!doctype html>"))
        for id in ["summary", "wait-distribution", "hourly-demand", "hourly-fleet", "zone-heatmap", "fairness"] {
            #expect(Self.count("<section id=\"\(id)\"", in: page) == 1, "missing section \(id)")
        }
        #expect(Self.count("<svg", in: page) == 5)
        #expect(Self.count("</svg>", in: page) == 5)
        // Every zone of the grid is drawn once in the heat map.
        #expect(Self.count("<title>zone ", in: page) == result.city.zoneCount)
        #expect(page.contains(result.summary.scenarioHash))
        #expect(page.contains("report-tiny"))
    }

    @Test func theWaitChartCountsTheServedImmediateRequestsAfterTheWarmUp() throws {
        // Rush hour ends with rides under way and has reservations: neither is a measured wait.
        let result = try CitySimulation(scenario: SimulationRunTests.scenario("rush-hour.yaml", ["duration_hours=6"])).run()
        let warmup = result.summary.warmupHours * 3600
        let expected = result.rides.filter { $0.requestedAt >= warmup && $0.outcome == "served" }.compactMap(\.waitS)
        let underWay = result.rides.filter { $0.requestedAt >= warmup && $0.outcome == "pending" && $0.waitS != nil }
        #expect(!underWay.isEmpty && result.rides.contains { $0.kind == "reservation" && $0.outcome == "served" })
        #expect(ReportCharts.measuredWaits(result) == expected)
    }

    @Test func theHeatMapGreysExactlyTheZonesWithNoImmediateRequestPickedUpAfterTheWarmUp() throws {
        // Too few taxis: some zones have requests and none picked up, the others have waits.
        let result = try CitySimulation(scenario: SimulationRunTests.scenario("rush-hour.yaml",
            ["duration_hours=3", "fleet.scale=0.02", "demand.scale=0.3"])).run()
        let warmup = result.summary.warmupHours * 3600
        let map = ReportCharts.zoneHeatmap(result)
        var greyed = 0, measured = 0
        for zone in result.summary.perZone where zone.requests > 0 {
            let pickedUp = result.rides.records.contains {
                $0.originZone == zone.zone && $0.requestedAt >= warmup && !$0.isReservation && $0.pickupAt != nil
            }
            let title = try #require(map.firstRange(of: "zone \(zone.zone) (column").map { map[$0.lowerBound...].prefix(200) })
            #expect(title.contains("no served ride") == !pickedUp, "zone \(zone.zone): \(title)")
            if pickedUp { measured += 1 } else { greyed += 1 }
        }
        #expect(greyed > 0 && measured > 0)
    }

    @Test func pageIsSelfContained() throws {
        let page = ReportPage.html(for: try Self.tinyResult())
        #expect(!page.contains("http://"))
        #expect(!page.contains("https://"))
        #expect(!page.contains("<script"))
        #expect(!page.contains("<link"))
        #expect(!page.lowercased().contains("nan"))
    }

    @Test func sameResultGivesTheSameBytes() throws {
        let result = try Self.tinyResult()
        #expect(ReportPage.html(for: result) == ReportPage.html(for: result))
        // A second run of the same scenario differs only in wall-clock figures.
        var first = result, second = try Self.tinyResult()
        first.summary = first.summary.withoutTimings
        second.summary = second.summary.withoutTimings
        #expect(ReportPage.html(for: first) == ReportPage.html(for: second))
    }

    @Test func resultWithNothingServedStillRenders() throws {
        let empty = Self.emptyResult(from: try Self.tinyResult())
        let page = ReportPage.html(for: empty)
        #expect(Self.count("<svg", in: page) == 5)
        #expect(!page.lowercased().contains("nan"))
        #expect(!page.contains("inf"))
        #expect(page.contains("no served immediate rides"))
        #expect(page.contains("no earnings to compare"))
    }

    @Test func textIsEscaped() throws {
        var result = try Self.tinyResult()
        result.summary.scenario = "a<b & \"c\""
        let page = ReportPage.html(for: result)
        #expect(page.contains("a&lt;b &amp; &quot;c&quot;"))
        #expect(!page.contains("a<b"))
    }

    @Test func formattingIsCompact() {
        #expect(Fmt.number(19204) == "19,204")
        #expect(Fmt.number(0.5) == "0.5")
        #expect(Fmt.number(12.345) == "12.3")
        #expect(Fmt.number(.nan) == "–")
        #expect(Fmt.duration(45) == "45 s")
        #expect(Fmt.duration(192) == "3.2 min")
        #expect(Fmt.percent(0.873) == "87.3 %")
        #expect(SVG.c(.infinity) == "0")
        #expect(LinearScale.niceTop(87).top == 100)
        #expect(ColorRamp.heat.color(0) == "#ffffcc")
        #expect(ColorRamp.heat.color(1) == "#800026")
    }

    @Test func lorenzCurveRunsFromOriginToOne() {
        let points = ReportCharts.lorenzPoints([1, 1, 2, 4])
        #expect(points.first!.x == 0 && points.first!.y == 0)
        #expect(points.last!.x == 1 && points.last!.y == 1)
        #expect(points[1].y == 0.125)
        #expect(ReportCharts.lorenzPoints([0, 0]).isEmpty)
        #expect(ReportCharts.lorenzPoints(Array(repeating: 1, count: 5000)).count <= 402)
    }
}
