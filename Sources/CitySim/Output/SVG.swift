import Foundation

/// Compact, deterministic number formatting for the report (never "nan" or "inf").
public enum Fmt {
    /// A compact number: grouped integers, otherwise 2–3 significant digits ("0.93", "12.4", "1,204").
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let magnitude = abs(value)
        if magnitude >= 1000 || value == value.rounded() && magnitude < 1e15 { return integer(Int(value.rounded())) }
        if magnitude >= 100 { return fixed(value, decimals: 0) }
        let text = fixed(value, decimals: magnitude >= 10 ? 1 : magnitude >= 0.01 ? 2 : 3)
        return trimmed(text)
    }

    /// An integer with thousands separators ("19,204").
    static func integer(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(ch)
        }
        return value < 0 ? "-" + out : out
    }

    /// A duration given in seconds: "45 s", "3.2 min", "1.5 h".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        if abs(seconds) < 120 { return number(seconds) + " s" }
        if abs(seconds) < 7200 { return trimmed(fixed(seconds / 60, decimals: 1)) + " min" }
        return trimmed(fixed(seconds / 3600, decimals: 1)) + " h"
    }

    /// Seconds as minutes with one decimal ("3.2").
    static func minutes(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        return trimmed(fixed(seconds / 60, decimals: 1))
    }

    /// A share as a percentage ("87.3 %").
    static func percent(_ share: Double) -> String {
        guard share.isFinite else { return "–" }
        return trimmed(fixed(share * 100, decimals: 1)) + " %"
    }

    /// Drops trailing zeros after a decimal point ("1.50" → "1.5", "2.0" → "2").
    static func trimmed(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var out = text
        while out.hasSuffix("0") { out.removeLast() }
        if out.hasSuffix(".") { out.removeLast() }
        return out == "-0" ? "0" : out
    }
}

/// Maps a domain interval linearly onto a pixel interval (a zero-width domain maps to the start).
struct LinearScale {
    let domain: (Double, Double), range: (Double, Double)

    func callAsFunction(_ value: Double) -> Double {
        let span = domain.1 - domain.0
        guard span != 0, span.isFinite, value.isFinite else { return range.0 }
        return range.0 + (value - domain.0) / span * (range.1 - range.0)
    }

    /// Round tick values from 0 to `max` for an axis of about `count` ticks: (top of axis, step).
    static func niceTop(_ max: Double, count: Int = 5) -> (top: Double, step: Double) {
        guard max.isFinite, max > 0 else { return (1, 0.2) }
        let rough = max / Double(count)
        let power = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        return ((max / step).rounded(.up) * step, step)
    }

    /// The ticks 0, step, 2·step … top.
    static func ticks(top: Double, step: Double) -> [Double] {
        guard step > 0 else { return [0] }
        let n = Int((top / step).rounded())
        return (0...max(n, 0)).map { Double($0) * step }
    }
}

/// A linear colour ramp through evenly spaced stops.
struct ColorRamp {
    let stops: [(r: Double, g: Double, b: Double)]

    /// Yellow → orange → red → dark red (ColorBrewer YlOrRd): light is short, dark is long.
    static let heat = ColorRamp(stops: [(255, 255, 204), (254, 217, 118), (253, 141, 60), (227, 26, 28), (128, 0, 38)])

    /// The colour at `t` in 0…1 (clamped), as "#rrggbb".
    func color(_ t: Double) -> String {
        let clamped = t.isFinite ? min(1, max(0, t)) : 0
        let position = clamped * Double(stops.count - 1)
        let i = min(stops.count - 2, Int(position))
        let f = position - Double(i)
        let a = stops[i], b = stops[i + 1]
        func channel(_ x: Double, _ y: Double) -> String {
            Fmt.hexByte(Int((x + (y - x) * f).rounded()))
        }
        return "#" + channel(a.r, b.r) + channel(a.g, b.g) + channel(a.b, b.b)
    }
}

/// Builders for inline SVG fragments. Coordinates are written with at most one decimal.
/// The `<svg>` elements are inline in HTML, so they need no namespace (and the page holds no URL).
enum SVG {
    /// Escapes text for HTML and SVG content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// A coordinate: one decimal at most, 0 for anything not finite.
    static func c(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return Fmt.trimmed(Fmt.fixed(value, decimals: 1))
    }

    static func open(width: Double, height: Double, label: String) -> String {
        "<svg viewBox=\"0 0 \(c(width)) \(c(height))\" role=\"img\" aria-label=\"\(escape(label))\">\n"
    }

    static let close = "</svg>\n"

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                     stroke: String = "#888", width: Double = 1, dash: String? = nil) -> String {
        let dashed = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        return "<line x1=\"\(c(x1))\" y1=\"\(c(y1))\" x2=\"\(c(x2))\" y2=\"\(c(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(c(width))\"\(dashed)/>\n"
    }

    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double,
                     fill: String, stroke: String? = nil, title: String? = nil) -> String {
        let outline = stroke.map { " stroke=\"\($0)\"" } ?? ""
        let attributes = "x=\"\(c(x))\" y=\"\(c(y))\" width=\"\(c(max(0, width)))\" height=\"\(c(max(0, height)))\" fill=\"\(fill)\"\(outline)"
        guard let title else { return "<rect \(attributes)/>\n" }
        return "<rect \(attributes)><title>\(escape(title))</title></rect>\n"
    }

    enum Anchor: String { case start, middle, end }

    static func text(_ x: Double, _ y: Double, _ content: String, anchor: Anchor = .start, size: Double = 11,
                     fill: String = "#333", weight: String? = nil, rotate: Double? = nil) -> String {
        let bold = weight.map { " font-weight=\"\($0)\"" } ?? ""
        let turn = rotate.map { " transform=\"rotate(\(c($0)) \(c(x)) \(c(y)))\"" } ?? ""
        return "<text x=\"\(c(x))\" y=\"\(c(y))\" text-anchor=\"\(anchor.rawValue)\" font-size=\"\(c(size))\" fill=\"\(fill)\"\(bold)\(turn)>\(escape(content))</text>\n"
    }

    /// A polyline through the points; `nil` points break the line into separate runs.
    static func polyline(_ points: [(x: Double, y: Double)?], stroke: String, width: Double = 2, dash: String? = nil) -> String {
        var runs: [[(x: Double, y: Double)]] = [[]]
        for point in points {
            if let point { runs[runs.count - 1].append(point) } else if !runs[runs.count - 1].isEmpty { runs.append([]) }
        }
        let dashed = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        var out = ""
        for run in runs where !run.isEmpty {
            if run.count == 1 {
                out += "<circle cx=\"\(c(run[0].x))\" cy=\"\(c(run[0].y))\" r=\"\(c(width + 1))\" fill=\"\(stroke)\"/>\n"
                continue
            }
            let coordinates = run.map { "\(c($0.x)),\(c($0.y))" }.joined(separator: " ")
            out += "<polyline points=\"\(coordinates)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(c(width))\" stroke-linejoin=\"round\"\(dashed)/>\n"
        }
        return out
    }

    static func polygon(_ points: [(x: Double, y: Double)], fill: String, opacity: Double = 1) -> String {
        let coordinates = points.map { "\(c($0.x)),\(c($0.y))" }.joined(separator: " ")
        return "<polygon points=\"\(coordinates)\" fill=\"\(fill)\" fill-opacity=\"\(Fmt.trimmed(Fmt.fixed(opacity, decimals: 2)))\"/>\n"
    }

    /// A map zone: a closed outline with a fill, an edge and a hover title; `opacity` lets a layer beneath show.
    static func zone(_ points: [(x: Double, y: Double)], fill: String, stroke: String, title: String,
                     opacity: Double? = nil) -> String {
        let coordinates = points.map { "\(c($0.x)),\(c($0.y))" }.joined(separator: " ")
        let see = opacity.map { " fill-opacity=\"\(Fmt.trimmed(Fmt.fixed($0, decimals: 2)))\"" } ?? ""
        return "<polygon points=\"\(coordinates)\" fill=\"\(fill)\"\(see) stroke=\"\(stroke)\"><title>\(escape(title))</title></polygon>\n"
    }

    /// Many straight segments as one thin path (a road network): one `M … L …` pair per segment.
    static func segments(_ lines: [(from: (x: Double, y: Double), to: (x: Double, y: Double))], stroke: String,
                         width: Double) -> String {
        var d = ""
        d.reserveCapacity(lines.count * 24)
        for line in lines { d += "M\(c(line.from.x)) \(c(line.from.y))L\(c(line.to.x)) \(c(line.to.y))" }
        return "<path d=\"\(d)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(Fmt.trimmed(Fmt.fixed(width, decimals: 2)))\" stroke-linecap=\"round\"/>\n"
    }

    /// A small legend: one coloured swatch and label per entry, left to right from (x, y).
    static func legend(_ entries: [(label: String, color: String)], x: Double, y: Double) -> String {
        var out = "", cursor = x
        for entry in entries {
            out += rect(cursor, y - 9, 14, 10, fill: entry.color)
            out += text(cursor + 18, y, entry.label, size: 11)
            cursor += 26 + Double(entry.label.count) * 6.2
        }
        return out
    }
}

/// A chart's plot area inside its SVG, with the axes drawn around it.
struct PlotFrame {
    let width: Double, height: Double
    let left: Double, right: Double, top: Double, bottom: Double

    init(width: Double = 560, height: Double = 300, left: Double = 56, right: Double = 20, top: Double = 24, bottom: Double = 44) {
        self.width = width; self.height = height
        self.left = left; self.right = width - right; self.top = top; self.bottom = height - bottom
    }

    func xScale(_ from: Double, _ to: Double) -> LinearScale { LinearScale(domain: (from, to), range: (left, right)) }
    func yScale(_ from: Double, _ to: Double) -> LinearScale { LinearScale(domain: (from, to), range: (bottom, top)) }

    /// Horizontal grid lines and tick labels for a y axis on the left (or right) edge.
    func yAxis(_ scale: LinearScale, ticks: [Double], label: String, onRight: Bool = false,
               format: (Double) -> String = Fmt.number, color: String = "#555", grid: Bool = true) -> String {
        var out = ""
        for tick in ticks {
            let y = scale(tick)
            if grid { out += SVG.line(left, y, right, y, stroke: "#e4e4e4") }
            out += onRight ? SVG.text(right + 5, y + 4, format(tick), anchor: .start, size: 10, fill: color)
                : SVG.text(left - 5, y + 4, format(tick), anchor: .end, size: 10, fill: color)
        }
        let x = onRight ? width - 12 : 14.0, y = (top + bottom) / 2
        out += SVG.text(x, y, label, anchor: .middle, size: 11, fill: color, rotate: onRight ? 90 : -90)
        return out
    }

    /// The x axis line, tick labels at the given (position, label) pairs and an axis title.
    func xAxis(_ ticks: [(x: Double, label: String)], label: String) -> String {
        var out = SVG.line(left, bottom, right, bottom, stroke: "#777")
        for tick in ticks {
            out += SVG.line(tick.x, bottom, tick.x, bottom + 4, stroke: "#777")
            out += SVG.text(tick.x, bottom + 16, tick.label, anchor: .middle, size: 10, fill: "#555")
        }
        out += SVG.text((left + right) / 2, height - 6, label, anchor: .middle, size: 11, fill: "#555")
        return out
    }

    /// Vertical bars from the baseline: one per value, each filling `band` pixels minus a gap.
    func bars(_ values: [Double], x: (Int) -> Double, band: Double, y: LinearScale, fill: String,
              titles: ((Int) -> String)? = nil) -> String {
        let gap = band > 6 ? max(1, band * 0.15) : 0
        var out = ""
        for (i, value) in values.enumerated() where value > 0 {
            let top = y(value)
            out += SVG.rect(x(i) + gap / 2, top, band - gap, bottom - top, fill: fill, title: titles?(i))
        }
        return out
    }
}
