extension DayPlan {
    /// The schedule as a text table: one row per activity and per trip, each trip followed by
    /// its legs (time, means, distance, what to take), then the totals and the warnings.
    public func table() -> String {
        var lines = ["\(date.weekday.rawValue.capitalized) \(date) — \(criterion.rawValue)", ""]
        lines.append(pad("time", 13) + pad("activity / trip", 22) + pad("means", 30)
            + pad("duration", 9, right: true) + pad("distance", 10, right: true) + pad("cost", 9, right: true)
            + pad("CO₂", 9, right: true))
        for step in steps {
            let time = "\(ClockTime.format(step.start))–\(ClockTime.format(step.end))"
            guard let trip = step.trip else {
                lines.append(pad(time, 13) + step.title)
                continue
            }
            let means = trip.legs.map(\.means.rawValue).reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
            lines.append(pad(time, 13) + pad("→ " + (step.appointment == nil ? "home" : step.title.replacingPrefix("to ")), 22)
                + pad(means.joined(separator: " + "), 30) + pad(minutes(trip.duration), 9, right: true)
                + pad(kilometres(trip.distance), 10, right: true) + pad(euros(trip.cost), 9, right: true)
                + pad(grams(trip.co2), 9, right: true))
            for leg in trip.legs {
                lines.append("               " + ClockTime.format(leg.departure) + " " + pad(leg.means.rawValue, 13)
                    + pad(kilometres(leg.distance), 8, right: true) + "  " + leg.detail)
            }
        }
        lines.append("")
        lines.append("travel: \(minutes(totals.travelSeconds)), \(kilometres(totals.distance)), \(euros(totals.cost)), "
            + "\(grams(totals.co2)) CO₂" + (truncated ? " (search budget reached: best plan found, not proven optimal)" : ""))
        if !warnings.isEmpty {
            lines.append("warnings:")
            for warning in warnings { lines.append("  ! [\(warning.kind.rawValue)] \(warning.message)") }
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(1, width - text.count))
        return right ? fill + text : text + fill
    }

    private func minutes(_ seconds: Double) -> String {
        let total = Int((seconds / 60).rounded())
        return total >= 60 ? "\(total / 60) h \(total % 60) min" : "\(total) min"
    }

    private func kilometres(_ metres: Double) -> String { "\(decimal(metres / 1000, places: 1)) km" }
    private func euros(_ amount: Double) -> String { "\(decimal(amount, places: 2)) €" }
    private func grams(_ value: Double) -> String { "\(Int(value.rounded())) g" }

    private func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = String(scaled % Int(scale))
        return "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

private extension String {
    func replacingPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
