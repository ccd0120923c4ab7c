import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Progress of a long command on standard error, in the form its reader can use.
///
/// On a terminal it redraws one line, a bar with the share done and an ETA, at most four times a second,
/// and clears it at `finish()`. Anywhere else (CI logs, Slurm output files, pipes) it writes plain lines
/// without `\r`, at most one every `interval` seconds, so a log file gets a readable history.
///
/// Invariant: `done` never decreases and never exceeds `total`; updates may come from any thread.
///
/// ```swift
/// let meter = ProgressMeter(label: "zone-size", total: 270, unit: "runs")
/// meter.advance(to: 12)          // "zone-size: 12/270 runs (4 %), 8 s elapsed, ETA 2 min 52 s"
/// meter.finish()
/// ```
public final class ProgressMeter: @unchecked Sendable {
    /// How the meter writes.
    public enum Style: Sendable, Equatable {
        /// A bar redrawn in place with `\r` (standard error is a terminal).
        case bar
        /// Plain periodic lines (standard error is a file or a pipe).
        case lines
        /// Nothing.
        case silent

        /// `.bar` when standard error is a terminal, else `.lines`.
        public static var automatic: Style { isatty(2) == 1 ? .bar : .lines }
    }

    public let label: String
    public let unit: String
    public let style: Style
    /// Seconds between two plain lines (style `.lines`); `CITYSIM_PROGRESS_INTERVAL` overrides the default 10 s.
    public let interval: TimeInterval
    /// Nothing is shown during the first `delay` seconds (short commands stay quiet);
    /// `CITYSIM_PROGRESS_DELAY` overrides the default 1 s.
    public let delay: TimeInterval

    private let lock = NSLock()
    private let started: Date
    private let write: @Sendable (String) -> Void
    private var total: Double
    private var done: Double = 0
    private var lastShown: Date?
    private var shownDone: Double = 0
    private var barShown = false

    /// - Parameters:
    ///   - total: the amount of work (runs, simulated seconds, cells); may grow later with `setTotal`.
    ///   - unit: the word after the counts ("runs"); empty to show a percentage only.
    ///   - write: where text goes (default: standard error).
    public init(label: String, total: Double, unit: String = "", style: Style = .automatic,
                interval: TimeInterval? = nil, delay: TimeInterval? = nil, now: Date = Date(),
                write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }) {
        self.label = label
        self.unit = unit
        self.style = style
        self.interval = interval
            ?? ProcessInfo.processInfo.environment["CITYSIM_PROGRESS_INTERVAL"].flatMap(Double.init) ?? 10
        self.delay = delay ?? ProcessInfo.processInfo.environment["CITYSIM_PROGRESS_DELAY"].flatMap(Double.init) ?? 1
        self.total = max(total, 0)
        self.started = now
        self.write = write
    }

    /// Raises the total (e.g. when a search decides on more steps).
    public func setTotal(_ newTotal: Double) {
        lock.withLock { total = max(newTotal, done) }
    }

    /// Records that `amount` of the total is done and shows it when it is time to.
    public func advance(to amount: Double, now: Date = Date()) {
        lock.withLock {
            done = min(max(amount, done), total)
            show(now: now)
        }
    }

    /// Records one more unit done.
    public func step(now: Date = Date()) {
        lock.withLock {
            done = min(done + 1, total)
            show(now: now)
        }
    }

    /// Clears the bar (terminal) so that other text can be written; the next update redraws it.
    public func clear() {
        lock.withLock {
            if style == .bar, barShown { write("\r\u{1B}[K") }
            barShown = false
        }
    }

    /// Clears the bar (terminal); a plain-lines meter that has written anything ends with a last line.
    public func finish(now: Date = Date()) {
        lock.withLock {
            switch style {
            case .bar where barShown: write("\r\u{1B}[K")
            case .lines where lastShown != nil && shownDone < done:
                write(Self.line(label: label, done: done, total: total, unit: unit, elapsed: now.timeIntervalSince(started)) + "\n")
            default: break
            }
            barShown = false
        }
    }

    private func show(now: Date) {
        let elapsed = now.timeIntervalSince(started)
        guard elapsed >= delay else { return }
        switch style {
        case .silent:
            return
        case .bar:
            if let lastShown, now.timeIntervalSince(lastShown) < 0.25 { return }
            write("\r\u{1B}[K" + Self.bar(label: label, done: done, total: total, unit: unit, elapsed: elapsed))
            barShown = true
        case .lines:
            if let lastShown, now.timeIntervalSince(lastShown) < interval { return }
            write(Self.line(label: label, done: done, total: total, unit: unit, elapsed: elapsed) + "\n")
        }
        lastShown = now
        shownDone = done
    }

    // MARK: - Text

    /// The plain line: `label: 12/270 runs (4 %), 8 s elapsed, ETA 2 min 52 s`.
    public static func line(label: String, done: Double, total: Double, unit: String, elapsed: TimeInterval) -> String {
        "\(label): \(counts(done: done, total: total, unit: unit)), \(duration(elapsed)) elapsed, ETA \(eta(done: done, total: total, elapsed: elapsed))"
    }

    /// The terminal bar: `label [#########.....................] 30 % 81/270 runs  ETA 1 min 4 s`.
    public static func bar(label: String, done: Double, total: Double, unit: String, elapsed: TimeInterval) -> String {
        let width = 30
        let fraction = total > 0 ? min(max(done / total, 0), 1) : 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let count = unit.isEmpty ? "" : " \(Int(done))/\(Int(total)) \(unit)"
        return "\(label) [\(bar)] \(Int(fraction * 100)) %\(count)  ETA \(eta(done: done, total: total, elapsed: elapsed))"
    }

    /// Remaining time at the average rate so far; `?` before anything is done.
    public static func eta(done: Double, total: Double, elapsed: TimeInterval) -> String {
        guard done > 0, total > 0 else { return "?" }
        return duration(max(elapsed * (total - done) / done, 0))
    }

    /// `42 s`, `3 min 5 s`, `2 h 7 min`.
    public static func duration(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }

    private static func counts(done: Double, total: Double, unit: String) -> String {
        let percent = total > 0 ? Int((done / total * 100).rounded(.down)) : 0
        return unit.isEmpty ? "\(percent) %" : "\(Int(done))/\(Int(total)) \(unit) (\(percent) %)"
    }
}
