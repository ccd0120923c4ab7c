import DispatchCore
import Foundation

/// The report's charts over space and drivers: the zone heat map and the Lorenz curve.
extension ReportCharts {
    // MARK: - Zone heat map

    static func zoneHeatmap(_ result: RunResult) -> String {
        let city = result.city
        let zones = result.summary.perZone
        // A zone whose requests were never served has no mean wait: its share of immediate requests picked up
        // (after the warm-up) is 0. (The summary's figure, where a scan of every record used to count them.)
        func hasWait(_ z: RunSummary.ZoneFigures) -> Bool {
            z.requests > 0 && z.zone >= 0 && z.zone < city.zoneCount && z.waitServedShare > 0 && z.meanWaitS.isFinite
        }
        let measured = zones.filter(hasWait).map(\.meanWaitS)
        let low = measured.min() ?? 0, high = measured.max() ?? 0
        let ramp = ColorRamp.heat
        func share(_ wait: Double) -> Double { high > low ? (wait - low) / (high - low) : 0.5 }

        // The city rectangle scaled into the map area, north up; zones drawn as their outlines.
        let width = 560.0, legendWidth = 90.0, margin = 20.0
        let scale = min((width - legendWidth - 2 * margin) / city.width, 340 / city.height)
        let mapWidth = city.width * scale, mapHeight = city.height * scale
        let originX = margin + (width - legendWidth - 2 * margin - mapWidth) / 2, originY = 28.0
        let height = max(originY + mapHeight + 30, 200)
        func point(_ p: Position) -> (x: Double, y: Double) { (originX + p.x * scale, originY + (city.height - p.y) * scale) }
        let zoneSize = city.zoneArea.squareRoot() * scale

        var svg = SVG.open(width: width, height: height, label: "Mean wait by zone on the city map")
        svg += "<defs><linearGradient id=\"heat-ramp\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
        for i in 0...4 {
            svg += "<stop offset=\"\(i * 25)%\" stop-color=\"\(ramp.color(Double(i) / 4))\"/>"
        }
        svg += "</linearGradient></defs>\n"
        // The rectangle outside the whole zones (not part of the city) in a light hatch grey.
        svg += SVG.rect(originX, originY, mapWidth, mapHeight, fill: "#f2f2f2", stroke: "none")
        // A road city: its network beneath the zones, which are drawn see-through over it.
        if let roads = result.roads { svg += SVG.segments(roadSegments(roads).map { (point($0.from), point($0.to)) }, stroke: "#333", width: 0.6) }
        let zoneOpacity: Double? = result.roads == nil ? nil : 0.7
        let labels = zoneSize >= 30
        for zone in zones where zone.zone >= 0 && zone.zone < city.zoneCount {
            let (row, column) = city.layout.rowAndColumn(of: zone.zone)
            let measuredZone = hasWait(zone)
            let t = share(zone.meanWaitS)
            let fill = measuredZone ? ramp.color(t) : "#d0d0d0"
            let title = measuredZone
                ? "zone \(zone.zone) (column \(column), row \(row)): \(Fmt.integer(zone.requests)) requests, mean wait \(Fmt.duration(zone.meanWaitS)), p90 \(Fmt.duration(zone.p90WaitS))"
                : "zone \(zone.zone) (column \(column), row \(row)): \(Fmt.integer(zone.requests)) requests, no served ride"
            svg += SVG.zone(city.outline(of: ZoneID(zone.zone)).map(point), fill: fill, stroke: "#fff", title: title,
                            opacity: zoneOpacity)
            if labels && measuredZone {
                let c = point(city.centre(of: ZoneID(zone.zone)))
                svg += SVG.text(c.x, c.y + 4, Fmt.minutes(zone.meanWaitS), anchor: .middle,
                                size: min(12, zoneSize / 3), fill: t > 0.55 ? "#fff" : "#222")
            }
        }
        svg += SVG.rect(originX, originY, mapWidth, mapHeight, fill: "none", stroke: "#888")
        // North arrow above the map.
        let northX = originX + mapWidth + 12
        svg += SVG.text(northX, originY - 10, "N", anchor: .middle, size: 11, fill: "#555", weight: "600")
        svg += SVG.line(northX, originY + 20, northX, originY - 4, stroke: "#555", width: 1.5)
        svg += SVG.polyline([(northX - 4, originY + 2), (northX, originY - 5), (northX + 4, originY + 2)], stroke: "#555", width: 1.5)
        let shape = switch city.zoneShape { case .hexagon: "hexagonal"; case .polygons: "polygon"; default: "square" }
        svg += SVG.text(originX + mapWidth / 2, originY + mapHeight + 16,
                        "\(city.zoneCount) \(shape) zones of \(Fmt.number(city.zoneArea / 1e6)) km² · south edge at the bottom"
                            + (result.roads.map { " · \(Fmt.integer($0.nodeCount)) road nodes beneath" } ?? ""),
                        anchor: .middle, size: 10, fill: "#777")

        // Legend: the ramp from the lowest to the highest zone mean, and the grey of unmeasured zones.
        let legendX = width - legendWidth + 4, barTop = originY + 14, barHeight = min(160, max(60, mapHeight - 50))
        svg += SVG.text(legendX, originY + 2, "mean wait", size: 11, fill: "#333", weight: "600")
        svg += SVG.rect(legendX, barTop, 16, barHeight, fill: "url(#heat-ramp)", stroke: "#999")
        let legendTicks: [(Double, Double)] = measured.isEmpty ? [] : high > low ? [(0, low), (0.5, (low + high) / 2), (1, high)] : [(0.5, low)]
        for (t, value) in legendTicks {
            let y = barTop + barHeight * (1 - t)
            svg += SVG.line(legendX + 16, y, legendX + 20, y, stroke: "#777")
            svg += SVG.text(legendX + 23, y + 4, Fmt.minutes(value) + " min", size: 10, fill: "#555")
        }
        let greyY = barTop + barHeight + 14
        svg += SVG.rect(legendX, greyY, 16, 12, fill: "#d0d0d0", stroke: "#999")
        svg += SVG.text(legendX + 20, greyY + 10, "no data", size: 10, fill: "#555")
        svg += SVG.close

        let note = measured.isEmpty
            ? "Zones with north at the top; no zone had a served ride. Grey: no requests or none served. Pale: the edge of the rectangle outside every whole zone."
            : "Mean wait of requests starting in each zone (numbers in minutes), north at the top; from \(Fmt.minutes(low)) to \(Fmt.minutes(high)) min. Grey: no requests or none served. Pale: the edge of the rectangle outside every whole zone (not part of the city)."
        return ReportPage.section(id: "zone-heatmap", title: "Mean wait by zone", note: note, svg: svg)
    }

    // MARK: - Fairness

    /// Points of the Lorenz curve of `values` (cumulative share of the population, cumulative share of the total),
    /// from (0, 0) to (1, 1), thinned to about `limit` points; empty when the total is not positive.
    static func lorenzPoints(_ values: [Double], limit: Int = 400) -> [(x: Double, y: Double)] {
        let sorted = values.filter(\.isFinite).sorted()
        let total = sorted.reduce(0, +)
        guard !sorted.isEmpty, total > 0 else { return [] }
        var cumulative = [0.0]
        for value in sorted { cumulative.append(cumulative[cumulative.count - 1] + value) }
        let n = sorted.count
        let stride = max(1, (n + limit - 1) / limit)
        var indices = Array(Swift.stride(from: 0, through: n, by: stride))
        if indices.last != n { indices.append(n) }
        return indices.map { (Double($0) / Double(n), cumulative[$0] / total) }
    }

    static func fairness(_ result: RunResult) -> String {
        let working = result.drivers.filter { $0.shiftHours > 0 }
        let rates = working.map { $0.earnings / $0.shiftHours }
        let points = lorenzPoints(rates)
        let gini = result.summary.fairness.giniEarnings
        let frame = PlotFrame(width: 560, height: 340, left: 110, right: 130, top: 20, bottom: 44)
        let x = frame.xScale(0, 1), y = frame.yScale(0, 1)
        let ticks = LinearScale.ticks(top: 1, step: 0.25)

        var svg = SVG.open(width: frame.width, height: frame.height, label: "Lorenz curve of driver earnings per shift hour")
        svg += frame.yAxis(y, ticks: ticks, label: "share of earnings", format: { Fmt.percent($0) })
        svg += frame.xAxis(ticks.map { (x($0), Fmt.percent($0)) }, label: "share of drivers, poorest first")
        svg += SVG.line(x(0), y(0), x(1), y(1), stroke: "#999", width: 1.5, dash: "6 4")
        svg += SVG.text(x(0.62), y(0.7) - 6, "equality", anchor: .middle, size: 10, fill: "#888", rotate: -atan2Degrees(frame))
        if points.isEmpty {
            svg += SVG.text(x(0.5), y(0.25), "no earnings to compare", anchor: .middle, size: 13, fill: "#888")
        } else {
            let curve = points.map { (x: x($0.x), y: y($0.y)) }
            // Closing the curve back to (0, 0) runs along the diagonal: the fill is the inequality gap.
            svg += SVG.polygon(curve, fill: blue, opacity: 0.15)
            svg += SVG.polyline(curve, stroke: blue, width: 2.5)
        }
        let boxX = frame.right + 12
        svg += SVG.text(boxX, frame.top + 16, "Gini", size: 12, fill: "#555")
        svg += SVG.text(boxX, frame.top + 40, Fmt.number(gini), size: 22, fill: "#222", weight: "700")
        svg += SVG.text(boxX, frame.top + 64, "Jain \(Fmt.number(result.summary.fairness.jainRidesPerShiftHour))", size: 11, fill: "#555")
        svg += SVG.text(boxX, frame.top + 80, "(rides per shift h)", size: 10, fill: "#888")
        svg += SVG.text(boxX, frame.top + 102, "\(Fmt.integer(working.count)) drivers", size: 11, fill: "#555")
        svg += SVG.close

        let mean = rates.isEmpty ? 0 : rates.reduce(0, +) / Double(rates.count)
        let note = "Lorenz curve of earnings per shift hour over the \(Fmt.integer(working.count)) drivers who worked (mean \(Fmt.number(mean)) per h); the further below the diagonal, the less equal. Gini \(Fmt.number(gini))."
        return ReportPage.section(id: "fairness", title: "Fairness: driver earnings per shift hour", note: note, svg: svg)
    }

    /// The on-screen angle of the frame's diagonal, in degrees.
    private static func atan2Degrees(_ frame: PlotFrame) -> Double {
        let dx = frame.right - frame.left, dy = frame.bottom - frame.top
        return (dy / dx).isFinite ? atan(dy / dx) * 180 / .pi : 45
    }
}
