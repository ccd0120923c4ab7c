import DispatchCore
/// The self-contained HTML report of one run: a header with the key figures and five charts
/// (inline CSS and SVG, no scripts, no URLs). The same result always gives the same bytes.
///
/// Sections (by id): `summary`, `wait-distribution`, `hourly-demand`, `hourly-fleet`,
/// `zone-heatmap`, `fairness`.
enum ReportPage {
    static let sectionIDs = ["summary", "wait-distribution", "hourly-demand", "hourly-fleet", "zone-heatmap", "fairness"]

    static func html(for result: RunResult) -> String {
        let s = result.summary
        var out = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>citysim · \(SVG.escape(s.scenario)) · seed \(s.seed)</title>\n"
        out += "<style>\n\(css)</style>\n</head>\n<body>\n<main>\n"
        out += header(result)
        out += "<div class=\"charts\">\n"
        out += ReportCharts.waitDistribution(result)
        out += ReportCharts.hourlyDemand(result)
        out += ReportCharts.hourlyFleet(result)
        out += ReportCharts.zoneHeatmap(result)
        out += ReportCharts.fairness(result)
        out += "</div>\n</main>\n</body>\n</html>\n"
        return out
    }

    /// One chart's card: an id, a title, a note under the title and the SVG.
    static func section(id: String, title: String, note: String, svg: String) -> String {
        "<section id=\"\(id)\" class=\"card\">\n<h2>\(SVG.escape(title))</h2>\n<p class=\"note\">\(SVG.escape(note))</p>\n\(svg)</section>\n"
    }

    // MARK: - Header

    /// "49 whole squares of 2 km² (9.9 × 9.9 km of the 10 × 10 km city)".
    static func zonesText(_ city: CityGeometry) -> String {
        let shape = switch city.zoneShape {
        case .hexagon: "hexagons"
        case .square: "whole squares"
        case .polygons: "polygons (GeoJSON)"
        case .cutSquares: "squares (edge zones cut)"
        }
        let b = city.layout.bounds
        return "\(city.zoneCount) \(shape) of \(Fmt.number(city.zoneArea / 1e6)) km² (\(Fmt.number(city.layout.servedArea / 1e6)) km² within "
            + "\(Fmt.number((b.maxX - b.minX) / 1000)) × \(Fmt.number((b.maxY - b.minY) / 1000)) km of the "
            + "\(Fmt.number(city.width / 1000)) × \(Fmt.number(city.height / 1000)) km city)"
    }

    static func header(_ result: RunResult) -> String {
        let s = result.summary
        let identity: [(String, String)] = [
            ("Scenario", s.scenario),
            ("Seed", String(s.seed)),
            ("Replication", String(s.replication)),
            ("Policy", s.policy),
            ("Scenario hash", s.scenarioHash),
            ("Commit", s.commit ?? "—"),
            ("Simulated", "\(Fmt.number(s.simulatedHours)) h (warm-up \(Fmt.number(s.warmupHours)) h)"),
            ("Zones", Self.zonesText(result.city)),
            ("Taxis on shift", Fmt.integer(s.fleet.taxis)),
        ]
        var out = "<section id=\"summary\" class=\"card wide\">\n"
        out += "<h1>citysim report: \(SVG.escape(s.scenario))</h1>\n<dl class=\"identity\">\n"
        for (term, value) in identity {
            out += "<div><dt>\(SVG.escape(term))</dt><dd>\(SVG.escape(value))</dd></div>\n"
        }
        out += "</dl>\n<p class=\"note\">Counts and waits cover requests made after the warm-up; times are per request.</p>\n"
        out += "<div class=\"figures\">\n"
        for (caption, rows) in keyFigures(s) {
            out += "<table>\n<caption>\(SVG.escape(caption))</caption>\n"
            for (name, value) in rows {
                out += "<tr><th scope=\"row\">\(SVG.escape(name))</th><td>\(SVG.escape(value))</td></tr>\n"
            }
            out += "</table>\n"
        }
        out += "</div>\n</section>\n"
        return out
    }

    /// The key figures in captioned groups, in a fixed order.
    static func keyFigures(_ s: RunSummary) -> [(String, [(String, String)])] {
        let r = s.requests
        func share(_ n: Int) -> String {
            r.generated > 0 ? "\(Fmt.integer(n)) (\(Fmt.percent(Double(n) / Double(r.generated))))" : Fmt.integer(n)
        }
        return [
            ("Requests", [
                ("Generated", Fmt.integer(r.generated)),
                ("Served", share(r.served)),
                ("Rejected", share(r.rejected)),
                ("Cancelled", share(r.cancelled)),
                ("Expired", share(r.expired)),
                ("Pending at end", share(r.pendingAtEnd)),
                ("Throughput", Fmt.number(s.throughputPerHour) + " /h"),
            ]),
            ("Waits", [
                ("Wait mean", Fmt.duration(s.waitS.mean)),
                ("Wait p50", Fmt.duration(s.waitS.p50)),
                ("Wait p90", Fmt.duration(s.waitS.p90)),
                ("Wait p99", Fmt.duration(s.waitS.p99)),
                ("Assign mean", Fmt.duration(s.assignS.mean)),
                ("Assign p90", Fmt.duration(s.assignS.p90)),
            ]),
            ("Offers and reservations", [
                ("Offers sent", Fmt.integer(s.offers.sent)),
                ("Accepted / declined", "\(Fmt.integer(s.offers.accepted)) / \(Fmt.integer(s.offers.declined))"),
                ("Timed out", Fmt.integer(s.offers.timedOut)),
                ("Reservations made", Fmt.integer(s.reservations.made)),
                ("On time / late", "\(Fmt.integer(s.reservations.servedOnTime)) / \(Fmt.integer(s.reservations.servedLate))"),
                ("Failed / cancelled", "\(Fmt.integer(s.reservations.failed)) / \(Fmt.integer(s.reservations.cancelled))"),
            ]),
            ("Fleet and fairness", [
                ("Utilization", Fmt.percent(s.fleet.utilization)),
                ("Mean queue wait", Fmt.duration(s.fleet.meanQueueWaitS)),
                ("Jain (rides/shift h)", Fmt.number(s.fairness.jainRidesPerShiftHour)),
                ("Gini (earnings/shift h)", Fmt.number(s.fairness.giniEarnings)),
                ("FIFO violations", Fmt.integer(s.fairness.fifoViolations)),
                ("MAD reassignments", Fmt.integer(s.fleet.madReassignments)),
            ]),
            ("Engine", [
                ("Events", Fmt.integer(s.engine.events)),
                ("Wall time", Fmt.number(s.engine.wallS) + " s"),
                ("Events per s", Fmt.number(s.engine.eventsPerS)),
            ]),
        ] + (s.planner.map(plannerFigures) ?? [])
    }

    /// The planner users' groups: their trips by means and their taxi rides.
    static func plannerFigures(_ p: PlannerSummary) -> [(String, [(String, String)])] {
        let t = p.taxi
        return [
            ("Planner users", [
                ("Users", Fmt.integer(p.users)),
                ("Appointments / placed", "\(Fmt.integer(p.appointments)) / \(Fmt.integer(p.appointmentsScheduled))"),
                ("Trips", Fmt.integer(p.trips)),
            ] + p.tripsByMeans.map { ("by \($0.means)", "\(Fmt.integer($0.count)) (\(Fmt.percent($0.share)))") }),
            ("Planner taxi rides", [
                ("Taxi legs", Fmt.integer(t.legs)),
                ("Requests / reservations", "\(Fmt.integer(t.requests)) / \(Fmt.integer(t.reservations))"),
                ("Refused / not booked", "\(Fmt.integer(t.refused)) / \(Fmt.integer(t.notBooked))"),
                ("Served", Fmt.integer(t.served)),
                ("Rejected / expired", "\(Fmt.integer(t.rejected)) / \(Fmt.integer(t.expired))"),
                ("Wait p50 / p90", "\(Fmt.duration(t.waitS.p50)) / \(Fmt.duration(t.waitS.p90))"),
                ("Reservations on time / late", "\(Fmt.integer(t.reservationsOnTime)) / \(Fmt.integer(t.reservationsLate))"),
                ("Reservations failed", Fmt.integer(t.reservationsFailed)),
                ("Appointments late by taxi", Fmt.integer(t.appointmentsLate)),
                ("Appointments without taxi", Fmt.integer(t.appointmentsWithoutTaxi)),
            ]),
        ]
    }

    static let css = """
    body { margin: 0; background: #f3f4f6; color: #222; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; }
    main { max-width: 1180px; margin: 0 auto; padding: 16px; }
    h1 { font-size: 22px; margin: 0 0 10px; }
    h2 { font-size: 16px; margin: 0 0 2px; }
    .card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 14px 16px; margin-bottom: 16px; }
    .note { color: #666; font-size: 12px; margin: 0 0 8px; }
    .identity { display: flex; flex-wrap: wrap; gap: 6px 24px; margin: 0 0 10px; }
    .identity dt { color: #666; font-size: 11px; text-transform: uppercase; letter-spacing: .04em; }
    .identity dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; word-break: break-all; }
    .figures { display: flex; flex-wrap: wrap; gap: 12px 28px; align-items: flex-start; }
    .figures table { border-collapse: collapse; font-size: 13px; }
    .figures caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
    .figures th { text-align: left; font-weight: normal; color: #555; padding: 2px 12px 2px 0; }
    .figures td { text-align: right; font-variant-numeric: tabular-nums; padding: 2px 0; }
    .figures tr + tr { border-top: 1px solid #eee; }
    .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px; }
    .charts .card { margin: 0; }
    svg { display: block; width: 100%; height: auto; font-family: inherit; }

    """
}
