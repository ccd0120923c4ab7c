import Foundation

/// The self-contained HTML report of a sweep (inline CSS and SVG, no scripts, no URLs): per panel the plotted
/// metric against `x` with one line per `lines` value and its shaded 95 % confidence band, the best grid
/// point with paired comparisons, a note on common random numbers and a table of every grid point.
enum SweepReport {
    static let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7", "#9c755f"]

    static func html(_ results: SweepResults) -> String {
        let experiment = results.experiment
        var out = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>citysim sweep · \(SVG.escape(experiment.name))</title>\n<style>\n\(ReportPage.css)\(css)</style>\n</head>\n<body>\n<main>\n"
        out += header(results)
        out += "<div class=\"charts\">\n"
        for panel in panels(experiment) { out += chart(results, panel: panel) }
        out += "</div>\n"
        out += table(results)
        out += "</main>\n</body>\n</html>\n"
        return out
    }

    static let css = """
    table.points { border-collapse: collapse; font-size: 12px; margin-top: 8px; }
    table.points th, table.points td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
    table.points tr.best td { background: #fff3cd; font-weight: 600; }
    .crn { background: #eef5ee; border-left: 4px solid #59a14f; padding: 6px 10px; }
    .scroll { overflow-x: auto; }

    """

    // MARK: - Header

    static func header(_ results: SweepResults) -> String {
        let experiment = results.experiment
        let document = results.document
        let y = experiment.plot.y
        let metric = SweepMetric.named(y)!
        var out = "<section id=\"summary\" class=\"card wide\">\n<h1>citysim sweep: \(SVG.escape(experiment.name))</h1>\n"
        if !experiment.description.isEmpty { out += "<p>\(SVG.escape(experiment.description))</p>\n" }
        let grid = experiment.grid.map { "\($0.key) ∈ {\($0.values.map(Experiment.label).joined(separator: ", "))}" }
        let identity: [(String, String)] = [
            ("Base scenario", experiment.scenario),
            ("Fixed overrides", experiment.set.isEmpty ? "—" : experiment.set.joined(separator: "; ")),
            ("Grid", grid.isEmpty ? "one point" : grid.joined(separator: " × ")),
            ("Runs", "\(experiment.points.count) grid points × \(experiment.replications) replications = \(results.records.count)"),
            ("Seeds", Array(Set(results.manifest.pointSeeds)).sorted().map(String.init).joined(separator: ", ")
                + ", replications 0–\(experiment.replications - 1)"),
            ("Commit", document.commits.isEmpty ? "—" : document.commits.joined(separator: ", ")),
        ]
        out += "<dl class=\"identity\">\n"
        for (term, value) in identity { out += "<div><dt>\(SVG.escape(term))</dt><dd>\(SVG.escape(value))</dd></div>\n" }
        out += "</dl>\n"
        out += "<p class=\"note crn\">\(SVG.escape(SweepResults.commonRandomNumbersNote)) Confidence intervals are 95 % Student t "
            + "over the \(experiment.replications) replications; the comparisons with the best point below are paired "
            + "(difference per replication), which common random numbers make much tighter than the bands.</p>\n"
        let best = document.best
        let where_ = experiment.grid.map { "\($0.key) = \(best.values[$0.key] ?? "")" }.joined(separator: ", ")
        out += "<h2>Best grid point for \(SVG.escape(y)) (\(metric.higherIsBetter ? "largest" : "smallest") mean)</h2>\n"
        out += "<p>Point \(best.point)\(where_.isEmpty ? "" : ": " + SVG.escape(where_)) — \(SVG.escape(y)) = "
            + "\(SVG.escape(value(best.mean, metric))) ± \(SVG.escape(value(best.ci95HalfWidth, metric))). "
        if best.tiedPoints.isEmpty {
            out += "Every other grid point is worse, and the paired difference is significant at 95 %.</p>\n"
        } else {
            let names = best.tiedPoints.prefix(12).map { pointLabel(experiment, $0) }.joined(separator: "; ")
            out += "\(best.tiedPoints.count) other point\(best.tiedPoints.count == 1 ? " is" : "s are") not distinguishable from it "
                + "at 95 % (paired difference interval contains 0): \(SVG.escape(names))\(best.tiedPoints.count > 12 ? "; …" : "").</p>\n"
        }
        out += "</section>\n"
        return out
    }

    static func pointLabel(_ experiment: Experiment, _ point: Int) -> String {
        let values = experiment.points[point].values.map(Experiment.label)
        return "#\(point) " + zip(experiment.grid, values).map { "\($0.key)=\($1)" }.joined(separator: ", ")
    }

    static func value(_ x: Double, _ metric: SweepMetric) -> String {
        switch metric.unit {
        case .seconds: return Fmt.number(x) + " s"
        case .share: return Fmt.percent(x)
        default: return Fmt.number(x)
        }
    }

    // MARK: - Panels

    /// A panel: the grid points sharing the values of every key other than `x` and `lines`.
    struct Panel {
        var title: String
        var points: [Int]
    }

    static func panels(_ experiment: Experiment) -> [Panel] {
        let keys = experiment.grid.map(\.key)
        let fixed = keys.indices.filter { keys[$0] != experiment.plot.x && keys[$0] != experiment.plot.lines }
        var order: [[String]] = [], members: [[String]: [Int]] = [:]
        for point in experiment.points {
            let identity = fixed.map { point.values[$0] }
            if members[identity] == nil { order.append(identity) }
            members[identity, default: []].append(point.index)
        }
        return order.map { identity in
            let title = zip(fixed, identity).map { "\(keys[$0]) = \(Experiment.label($1))" }.joined(separator: ", ")
            return Panel(title: title.isEmpty ? experiment.plot.y : title, points: members[identity]!)
        }
    }

    static func chart(_ results: SweepResults, panel: Panel) -> String {
        let experiment = results.experiment
        let y = experiment.plot.y, metric = SweepMetric.named(y)!
        let keys = experiment.grid.map(\.key)
        let xAxis = experiment.plot.x.flatMap { keys.firstIndex(of: $0) }
        let lineAxis = experiment.plot.lines.flatMap { keys.firstIndex(of: $0) }
        let xValues = xAxis.map { experiment.grid[$0].values } ?? [""]
        let numericX = xAxis != nil && xValues.allSatisfy { Double($0) != nil }
        let lineValues = lineAxis.map { experiment.grid[$0].values } ?? [""]

        let frame = PlotFrame(width: 560, height: 320, bottom: 60)
        let xs = xValues.map { Double($0) ?? 0 }
        let x: (String) -> Double
        if numericX {
            let scale = frame.xScale(min(0, xs.min()!), xs.max()! > 0 ? xs.max()! : 1)
            x = { scale(Double($0)!) }
        } else {
            let scale = frame.xScale(-0.5, Double(xValues.count) - 0.5)
            x = { scale(Double(xValues.firstIndex(of: $0) ?? 0)) }
        }
        let all = experiment.points.indices.map { results.estimate(point: $0, metric: y) }
        let (top, step) = LinearScale.niceTop(all.map { $0.mean + $0.ci95HalfWidth }.max() ?? 0)
        let yScale = frame.yScale(0, top)
        let format: (Double) -> String
        switch metric.unit {
        case .share: format = { Fmt.percent($0) }
        default: format = { Fmt.number($0) }
        }

        var svg = SVG.open(width: frame.width, height: frame.height, label: "\(y) against \(experiment.plot.x ?? "point"), \(panel.title)")
        svg += frame.yAxis(yScale, ticks: LinearScale.ticks(top: top, step: step), label: y + (metric.unit == .seconds ? " (s)" : ""), format: format)
        var legend: [(label: String, color: String)] = []
        for (l, lineValue) in lineValues.enumerated() {
            let color = palette[l % palette.count]
            func xValue(_ point: Int) -> String { xAxis.map { experiment.points[point].values[$0] } ?? "" }
            let members = panel.points.filter { lineAxis == nil || experiment.points[$0].values[lineAxis!] == lineValue }
                .sorted { x(xValue($0)) < x(xValue($1)) }
            guard !members.isEmpty else { continue }
            let coordinates: [(x: Double, e: SweepResults.Estimate)] = members.map { p in
                (x: x(xValue(p)), e: results.estimate(point: p, metric: y))
            }
            if coordinates.count > 1 {
                let upper = coordinates.map { (x: $0.x, y: yScale(min(top, $0.e.mean + $0.e.ci95HalfWidth))) }
                let lower = coordinates.reversed().map { (x: $0.x, y: yScale(max(0, $0.e.mean - $0.e.ci95HalfWidth))) }
                svg += SVG.polygon(upper + lower, fill: color, opacity: 0.18)
            } else if let only = coordinates.first {
                svg += SVG.line(only.x, yScale(max(0, only.e.mean - only.e.ci95HalfWidth)), only.x,
                                yScale(only.e.mean + only.e.ci95HalfWidth), stroke: color, width: 3)
            }
            svg += SVG.polyline(coordinates.map { (x: $0.x, y: yScale($0.e.mean)) }, stroke: color, width: 2)
            for (i, c) in coordinates.enumerated() {
                let title = "\(pointLabel(experiment, members[i])): \(value(c.e.mean, metric)) ± \(value(c.e.ci95HalfWidth, metric))"
                svg += "<circle cx=\"\(SVG.c(c.x))\" cy=\"\(SVG.c(yScale(c.e.mean)))\" r=\"3\" fill=\"\(color)\"><title>\(SVG.escape(title))</title></circle>\n"
            }
            // Ring the line's best x.
            let better = metric.higherIsBetter
            if let best = coordinates.indices.min(by: { better ? coordinates[$0].e.mean > coordinates[$1].e.mean : coordinates[$0].e.mean < coordinates[$1].e.mean }) {
                svg += "<circle cx=\"\(SVG.c(coordinates[best].x))\" cy=\"\(SVG.c(yScale(coordinates[best].e.mean)))\" r=\"6.5\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\"/>\n"
            }
            if lineAxis != nil { legend.append(("\(experiment.plot.lines!)=\(Experiment.label(lineValue))", color)) }
        }
        let ticks = xValues.map { (x: x($0), label: Experiment.label($0)) }
        svg += frame.xAxis(ticks, label: experiment.plot.x ?? "")
        if !legend.isEmpty { svg += SVG.legend(legend, x: frame.left + 8, y: 14) }
        svg += SVG.close
        let note = "Mean of \(y) over \(experiment.replications) replications (points, line) with its 95 % confidence band (shaded); "
            + "a ring marks each line's best \(experiment.plot.x ?? "point")."
        return ReportPage.section(id: "panel", title: panel.title, note: note, svg: svg)
    }

    // MARK: - Table

    static func table(_ results: SweepResults) -> String {
        let experiment = results.experiment
        let metrics = experiment.metrics.map { SweepMetric.named($0)! }
        let best = results.best(for: experiment.plot.y)
        var out = "<section id=\"points\" class=\"card wide\">\n<h2>Grid points</h2>\n"
        out += "<p class=\"note\">Mean ± 95 % confidence half-width over \(experiment.replications) replications; the best point for "
            + "\(SVG.escape(experiment.plot.y)) is highlighted. The same numbers are in points.csv.</p>\n<div class=\"scroll\">\n<table class=\"points\">\n<tr><th>#</th>"
        for axis in experiment.grid { out += "<th>\(SVG.escape(axis.key))</th>" }
        for metric in metrics { out += "<th>\(SVG.escape(metric.name))</th>" }
        out += "</tr>\n"
        for point in experiment.points {
            out += point.index == best ? "<tr class=\"best\">" : "<tr>"
            out += "<td>\(point.index)</td>"
            for value in point.values { out += "<td>\(SVG.escape(Experiment.label(value)))</td>" }
            for (m, metric) in metrics.enumerated() {
                let e = results.estimates[point.index][m]
                out += "<td>\(SVG.escape(value(e.mean, metric))) ± \(SVG.escape(value(e.ci95HalfWidth, metric)))</td>"
            }
            out += "</tr>\n"
        }
        out += "</table>\n</div>\n</section>\n"
        return out
    }
}
