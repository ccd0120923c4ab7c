import Foundation
import Testing
@testable import CitySim

/// Collects what a meter writes.
private final class Transcript: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String] = []
    func append(_ text: String) { lock.withLock { parts.append(text) } }
    var all: [String] { lock.withLock { parts } }
}

@Suite("Progress meter")
struct ProgressMeterTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    @Test("the ETA is the remaining work at the average rate so far")
    func etaFromAverageRate() {
        #expect(ProgressMeter.eta(done: 25, total: 100, elapsed: 30) == "1 min 30 s")
        #expect(ProgressMeter.eta(done: 0, total: 100, elapsed: 30) == "?")
        #expect(ProgressMeter.duration(7_500) == "2 h 5 min")
    }

    @Test("off a terminal: one plain line per interval, none before the delay, a last line at the end")
    func plainLinesAreThrottled() {
        let transcript = Transcript()
        let meter = ProgressMeter(label: "sweep", total: 10, unit: "runs", style: .lines, interval: 10, delay: 1, now: start,
                                  write: { transcript.append($0) })
        meter.advance(to: 1, now: start.addingTimeInterval(0.5))   // before the delay: quiet
        meter.advance(to: 2, now: start.addingTimeInterval(2))     // shown
        meter.advance(to: 3, now: start.addingTimeInterval(5))     // within the interval: quiet
        meter.advance(to: 5, now: start.addingTimeInterval(12))    // shown
        meter.finish(now: start.addingTimeInterval(13))            // 5 was shown: nothing more
        #expect(transcript.all == ["sweep: 2/10 runs (20 %), 2 s elapsed, ETA 8 s\n",
                                   "sweep: 5/10 runs (50 %), 12 s elapsed, ETA 12 s\n"])
    }

    @Test("on a terminal: the bar is redrawn in place and cleared at the end")
    func barIsRedrawnInPlace() {
        let transcript = Transcript()
        let meter = ProgressMeter(label: "run", total: 4, unit: "", style: .bar, interval: 10, delay: 0, now: start,
                                  write: { transcript.append($0) })
        meter.advance(to: 1, now: start.addingTimeInterval(1))
        meter.advance(to: 2, now: start.addingTimeInterval(1.1))   // within 0.25 s: not redrawn
        meter.advance(to: 3, now: start.addingTimeInterval(3))
        meter.finish(now: start.addingTimeInterval(4))
        #expect(transcript.all == ["\r\u{1B}[Krun [#######.......................] 25 %  ETA 3 s",
                                   "\r\u{1B}[Krun [######################........] 75 %  ETA 1 s",
                                   "\r\u{1B}[K"])
    }

    @Test("done never goes back nor past the total")
    func doneIsMonotonic() {
        let transcript = Transcript()
        let meter = ProgressMeter(label: "x", total: 10, unit: "runs", style: .lines, interval: 0, delay: 0, now: start,
                                  write: { transcript.append($0) })
        meter.advance(to: 6, now: start.addingTimeInterval(1))
        meter.advance(to: 4, now: start.addingTimeInterval(2))
        meter.advance(to: 40, now: start.addingTimeInterval(3))
        #expect(transcript.all.map { $0.prefix(16) } == ["x: 6/10 runs (60", "x: 6/10 runs (60", "x: 10/10 runs (1"])
    }
}
