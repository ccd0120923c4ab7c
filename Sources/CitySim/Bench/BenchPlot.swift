import Foundation

/// The scaling plot of a `BenchReport`: a standalone SVG of four log-log
/// panels — wall time and peak memory against requests (one line per fleet
/// factor) and against taxis (one line per demand factor) — with a dashed
/// slope-1 guide in each, so linear growth is easy to tell from worse.
public enum BenchPlot {
    static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]

    /// The whole SVG document.
    public static func svg(_ report: BenchReport) -> String {
        let panelWidth = 470.0, panelHeight = 300.0, titleHeight = 40.0
        let width = 2 * panelWidth, height = titleHeight + 2 * panelHeight
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(SVG.c(width)) \(SVG.c(height))\" "
            + "width=\"\(SVG.c(width))\" height=\"\(SVG.c(height))\" font-family=\"sans-serif\">\n"
        out += SVG.rect(0, 0, width, height, fill: "#fff")
        let commit = report.machine.commit.map { " · \($0)" } ?? ""
        out += SVG.text(12, 18, "citysim bench \(report.name): \(report.baseScenario) \(report.baseOverrides.joined(separator: " "))",
                        size: 13, weight: "bold")
        out += SVG.text(12, 33, "\(report.machine.cpuModel), \(report.machine.nproc) cores\(commit) — log-log; dashed: slope 1 (linear)",
                        size: 11, fill: "#555")
        let wall: (BenchCell) -> Double = { $0.wallS }
        let memory: (BenchCell) -> Double = { $0.peakRssMebibytes }
        let panels: [(x: Double, y: Double, metric: (BenchCell) -> Double, yLabel: String, byRequests: Bool)] = [
            (0, titleHeight, wall, "wall time (s)", true),
            (panelWidth, titleHeight, wall, "wall time (s)", false),
            (0, titleHeight + panelHeight, memory, "peak RSS (MiB)", true),
            (panelWidth, titleHeight + panelHeight, memory, "peak RSS (MiB)", false),
        ]
        for panel in panels {
            out += "<g transform=\"translate(\(SVG.c(panel.x)) \(SVG.c(panel.y)))\">\n"
            out += self.panel(report, width: panelWidth, height: panelHeight, metric: panel.metric,
                              yLabel: panel.yLabel, byRequests: panel.byRequests)
            out += "</g>\n"
        }
        return out + SVG.close
    }

    private static func panel(_ report: BenchReport, width: Double, height: Double, metric: (BenchCell) -> Double,
                              yLabel: String, byRequests: Bool) -> String {
        let frame = PlotFrame(width: width, height: height, left: 60, right: 16, top: 28, bottom: 44)
        let cells = report.cells.filter { metric($0) > 0 && (byRequests ? $0.requests : $0.taxis) > 0 }
        guard !cells.isEmpty else { return "" }
        let xOf: (BenchCell) -> Double = { Double(byRequests ? $0.requests : $0.taxis) }
        let x = LogScale(values: cells.map(xOf), range: (frame.left, frame.right))
        let y = LogScale(values: cells.map(metric), range: (frame.bottom, frame.top))
        var out = ""
        for tick in y.decades {
            out += SVG.line(frame.left, y(tick), frame.right, y(tick), stroke: "#e4e4e4")
            out += SVG.text(frame.left - 5, y(tick) + 4, Fmt.number(tick), anchor: .end, size: 10, fill: "#555")
        }
        out += SVG.text(14, (frame.top + frame.bottom) / 2, yLabel, anchor: .middle, size: 11, fill: "#555", rotate: -90)
        out += frame.xAxis(x.decades.map { (x($0), Fmt.number($0)) }, label: byRequests ? "requests generated" : "taxis on the road")
        // Slope-1 guide through the smallest point.
        if let first = cells.min(by: { xOf($0) < xOf($1) }) {
            let x0 = xOf(first), y0 = metric(first), x1 = x.domain.1
            out += SVG.line(x(x0), y(y0), x(x1), y(y0 * x1 / x0), stroke: "#aaa", dash: "4 3")
        }
        let groups = byRequests ? report.fleetFactors : report.demandFactors
        var legend: [(label: String, color: String)] = []
        for (i, factor) in groups.enumerated() {
            let line = cells.filter { (byRequests ? $0.fleetFactor : $0.demandFactor) == factor }.sorted { xOf($0) < xOf($1) }
            guard !line.isEmpty else { continue }
            let color = colors[i % colors.count]
            out += SVG.polyline(line.map { (x(xOf($0)), y(metric($0))) }, stroke: color)
            for cell in line {
                out += "<circle cx=\"\(SVG.c(x(xOf(cell))))\" cy=\"\(SVG.c(y(metric(cell))))\" r=\"3\" fill=\"\(color)\">"
                    + "<title>demand ×\(Fmt.number(cell.demandFactor)), fleet ×\(Fmt.number(cell.fleetFactor)): "
                    + "\(cell.requests) requests, \(cell.taxis) taxis, \(Fmt.number(cell.wallS)) s, \(Fmt.number(cell.peakRssMebibytes)) MiB</title></circle>\n"
            }
            legend.append(((byRequests ? "fleet ×" : "demand ×") + Fmt.number(factor), color))
        }
        out += SVG.legend(legend, x: frame.left + 4, y: 16)
        return out
    }
}

/// Maps positive values logarithmically onto a pixel interval, padded to whole decades.
struct LogScale {
    let domain: (Double, Double)
    let range: (Double, Double)

    init(values: [Double], range: (Double, Double)) {
        let positive = values.filter { $0 > 0 && $0.isFinite }
        let low = positive.min() ?? 1, high = positive.max() ?? 10
        var lo = pow(10, log10(low).rounded(.down)), hi = pow(10, log10(high).rounded(.up))
        if hi <= lo { hi = lo * 10 }
        if lo <= 0 { lo = 1 }
        domain = (lo, hi)
        self.range = range
    }

    func callAsFunction(_ value: Double) -> Double {
        let a = log10(domain.0), b = log10(domain.1)
        guard value > 0, b > a else { return range.0 }
        return range.0 + (log10(value) - a) / (b - a) * (range.1 - range.0)
    }

    /// The powers of ten from the bottom to the top of the domain.
    var decades: [Double] {
        let a = Int(log10(domain.0).rounded()), b = Int(log10(domain.1).rounded())
        return (a...max(a, b)).map { pow(10, Double($0)) }
    }
}
