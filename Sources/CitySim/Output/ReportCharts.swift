/// The report's charts over time: the wait distribution and the hourly figures.
/// Each returns one `<section>` holding exactly one `<svg>`.
enum ReportCharts {
    static let blue = "#4e79a7", orange = "#f28e2b", green = "#59a14f", red = "#e15759", grey = "#bdbdbd"

    /// Waits (seconds) of served immediate requests made after the warm-up, in ride order.
    static func measuredWaits(_ result: RunResult) -> [Double] {
        let warmup = result.summary.warmupHours * 3600
        // From the simulator's records (`RideRecord.wait`, as `RideRow.waitS` gives it), without building the rows.
        return result.rides.records.compactMap { ride in
            ride.requestedAt >= warmup && ride.outcome == .served ? ride.wait : nil
        }
    }

    /// Labelled ticks at the centres of hour bands: every hour, or every 2nd/3rd/6th for long runs.
    static func hourTicks(_ hours: Int, _ x: LinearScale) -> [(x: Double, label: String)] {
        let every = hours <= 12 ? 1 : hours <= 24 ? 3 : hours <= 72 ? 6 : 24
        return stride(from: 0, to: hours, by: every).map { (x(Double($0) + 0.5), String($0)) }
    }

    // MARK: - Wait distribution

    static func waitDistribution(_ result: RunResult) -> String {
        let s = result.summary
        let waits = measuredWaits(result)
        let binCount = 30
        var upper = s.waitS.p99
        if !(upper > 0) { upper = waits.max() ?? 0 }
        if !(upper > 0) { upper = 60 }
        var counts = Array(repeating: 0, count: binCount), above = 0
        for wait in waits {
            if wait > upper { above += 1; continue }
            counts[min(binCount - 1, max(0, Int(wait / upper * Double(binCount))))] += 1
        }
        let frame = PlotFrame()
        let minutes = upper / 60
        let (xTop, xStep) = LinearScale.niceTop(minutes, count: 6)
        let x = frame.xScale(0, minutes)
        let (yTop, yStep) = LinearScale.niceTop(Double(counts.max() ?? 0))
        let y = frame.yScale(0, yTop)

        var svg = SVG.open(width: frame.width, height: frame.height, label: "Histogram of wait times")
        svg += frame.yAxis(y, ticks: LinearScale.ticks(top: yTop, step: yStep), label: "rides")
        let band = (frame.right - frame.left) / Double(binCount)
        let binWidth = upper / Double(binCount)
        svg += frame.bars(counts.map(Double.init), x: { frame.left + Double($0) * band }, band: band, y: y, fill: blue,
                          titles: { "\(Fmt.duration(Double($0) * binWidth))–\(Fmt.duration(Double($0 + 1) * binWidth)): \(Fmt.integer(counts[$0])) rides" })
        let xTicks = LinearScale.ticks(top: xTop, step: xStep).filter { $0 <= minutes + 1e-9 }.map { (x($0), Fmt.number($0)) }
        svg += frame.xAxis(xTicks, label: "wait (minutes), request to pickup")
        if !waits.isEmpty {
            for (name, value, color) in [("p50", s.waitS.p50, orange), ("p90", s.waitS.p90, red)] where value <= upper {
                let at = x(value / 60)
                svg += SVG.line(at, frame.top, at, frame.bottom, stroke: color, width: 2, dash: "5 3")
                svg += SVG.text(at + 4, frame.top + (name == "p50" ? 10 : 24), "\(name) \(Fmt.duration(value))",
                                size: 11, fill: color, weight: "600")
            }
        } else {
            svg += SVG.text((frame.left + frame.right) / 2, (frame.top + frame.bottom) / 2, "no served immediate rides",
                            anchor: .middle, size: 13, fill: "#888")
        }
        svg += SVG.close
        var note = "\(Fmt.integer(waits.count)) served immediate rides, \(binCount) bins up to \(s.waitS.p99 > 0 ? "p99 (\(Fmt.duration(upper)))" : Fmt.duration(upper))"
        if above > 0 { note += "; \(Fmt.integer(above)) longer waits not shown" }
        note += "; mean \(Fmt.duration(s.waitS.mean))."
        return ReportPage.section(id: "wait-distribution", title: "Wait-time distribution", note: note, svg: svg)
    }

    // MARK: - Demand and waits by hour

    static func hourlyDemand(_ result: RunResult) -> String {
        let hours = result.summary.perHour
        let frame = PlotFrame(right: 56)
        let x = frame.xScale(0, Double(max(1, hours.count)))
        let band = x(1) - x(0)
        let (dTop, dStep) = LinearScale.niceTop(Double(hours.map(\.demand).max() ?? 0))
        let yDemand = frame.yScale(0, dTop)
        // Mean wait only where the hour served someone; otherwise a gap in the line.
        let waits: [Double?] = hours.map { $0.served > 0 ? $0.meanWaitS / 60 : nil }
        let (wTop, _) = LinearScale.niceTop(waits.compactMap { $0 }.max() ?? 0)
        // The wait axis shares the demand axis's gridlines: same number of ticks.
        let tickCount = max(1, Int((dTop / dStep).rounded()))
        let wStep = LinearScale.niceTop(wTop, count: tickCount).step
        let wAxisTop = wStep * Double(tickCount) >= wTop ? wStep * Double(tickCount) : wTop
        let yWait = frame.yScale(0, wAxisTop)

        var svg = SVG.open(width: frame.width, height: frame.height, label: "Demand and mean wait by hour")
        svg += frame.yAxis(yDemand, ticks: LinearScale.ticks(top: dTop, step: dStep), label: "requests per hour", color: blue)
        svg += frame.yAxis(yWait, ticks: (0...tickCount).map { Double($0) * wAxisTop / Double(tickCount) },
                           label: "mean wait (min)", onRight: true, color: orange, grid: false)
        svg += frame.bars(hours.map { Double($0.demand) }, x: { x(Double($0)) }, band: band, y: yDemand, fill: "#a9c4e0",
                          titles: { h in
                              let f = hours[h]
                              return "hour \(f.hour): \(Fmt.integer(f.demand)) requests, \(Fmt.integer(f.served)) served, \(Fmt.integer(f.rejected)) rejected, mean wait \(Fmt.duration(f.meanWaitS))"
                          })
        svg += frame.bars(hours.map { Double($0.rejected) }, x: { x(Double($0)) }, band: band, y: yDemand, fill: red)
        svg += SVG.polyline(waits.enumerated().map { h, w in w.map { (x(Double(h) + 0.5), yWait($0)) } },
                            stroke: orange, width: 2.5)
        svg += frame.xAxis(hourTicks(hours.count, x), label: "hour of the simulated day")
        svg += SVG.legend([("requests", "#a9c4e0"), ("rejected", red), ("mean wait", orange)], x: frame.left + 8, y: 14)
        svg += SVG.close
        let busiest = hours.max { $0.demand < $1.demand || $0.demand == $1.demand && $0.hour > $1.hour }
        var note = "Requests made in each hour (bars, left axis) and the mean wait of those served (line, right axis); warm-up hours included."
        if let busiest, busiest.demand > 0 {
            note += " Busiest hour: \(busiest.hour) with \(Fmt.integer(busiest.demand)) requests."
        }
        return ReportPage.section(id: "hourly-demand", title: "Demand and waits by hour", note: note, svg: svg)
    }

    // MARK: - Taxis by hour

    static func hourlyFleet(_ result: RunResult) -> String {
        let hours = result.summary.perHour
        let frame = PlotFrame()
        let x = frame.xScale(0, Double(max(1, hours.count)))
        let (top, step) = LinearScale.niceTop(Double(hours.map { max($0.taxisOnShift, $0.taxisAvailable) }.max() ?? 0))
        let y = frame.yScale(0, top)

        var svg = SVG.open(width: frame.width, height: frame.height, label: "Taxis on shift and available by hour")
        svg += frame.yAxis(y, ticks: LinearScale.ticks(top: top, step: step), label: "taxis")
        let onShift = hours.enumerated().map { h, f -> (x: Double, y: Double)? in (x(Double(h) + 0.5), y(Double(f.taxisOnShift))) }
        let available = hours.enumerated().map { h, f -> (x: Double, y: Double)? in (x(Double(h) + 0.5), y(Double(f.taxisAvailable))) }
        // Shade the busy taxis: the band between on shift and available.
        if hours.count > 1 {
            let upper = onShift.compactMap { $0 }, lower = available.compactMap { $0 }.reversed()
            svg += SVG.polygon(upper + lower, fill: blue, opacity: 0.12)
        }
        svg += SVG.polyline(onShift, stroke: blue, width: 2.5)
        svg += SVG.polyline(available, stroke: green, width: 2.5)
        svg += frame.xAxis(hourTicks(hours.count, x), label: "hour of the simulated day (sampled at the start of each hour)")
        svg += SVG.legend([("on shift", blue), ("available", green), ("busy (between)", "#dce6f1")], x: frame.left + 8, y: 14)
        svg += SVG.close
        let peak = hours.map(\.taxisOnShift).max() ?? 0
        let note = "Taxis on shift and taxis available for an offer at the start of each hour; peak on shift \(Fmt.integer(peak)), utilization \(Fmt.percent(result.summary.fleet.utilization))."
        return ReportPage.section(id: "hourly-fleet", title: "Taxis on shift and available by hour", note: note, svg: svg)
    }
}
