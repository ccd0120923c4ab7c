import Foundation
import RoadNetwork

/// The summary's ride tally worked out while the run goes on: a run that writes no `rides.csv`
/// (`--outputs summary`, sweeps, replications, plan-fleet) hands its sealed rides to this stream on the rides
/// helper (`RidesAside`), which adds them to a `RideTally.Pass` in id order; after the last one it sorts, while
/// the run's thread works out the figures that do not need the tally. Before, the whole pass and its sort ran
/// after the loop (the grid city: ~52 M instructions, ~5 % of its run).
///
/// Invariant: `value()` returns, once `finish(complete: true)` has run, exactly `RideTally.sorted` of the rows
/// written (the same pass in the same order); nil when the run or the stream did not complete.
final class RideTallyStream: RideRowsStream, @unchecked Sendable {
    // Touched by the helper alone between `start` and `finish`, then read after `done` (which orders them).
    private var pass: RideTally.Pass?
    private var result: (tally: RideTally, sortedAssigns: [Double])?
    private let done = DispatchSemaphore(value: 0)

    /// A tally of a run of `hours` hours and `zones` zones whose window starts at `warmup`.
    init(hours: Int, zones: Int, warmup: Double, expected: Int) {
        pass = RideTally.Pass(hours: hours, zones: zones, warmup: warmup, expected: expected)
    }

    func start(roads: RoadGraph?) throws {}

    func write(_ rows: RunResult.RideRows, _ batch: Range<Int>) throws {
        guard var pass = pass.take() else { return }
        let records = rows.records
        for id in batch { pass.add(records[id]) }
        self.pass = pass
    }

    func finish(complete: Bool) throws {
        if complete, let pass = pass.take() { result = pass.sorted() }
        pass = nil
        done.signal()
    }

    /// Waits for `finish`, then gives the tally with its assignment times sorted; nil when the run did not complete.
    func value() -> (tally: RideTally, sortedAssigns: [Double])? {
        done.wait()
        done.signal()  // for a later call
        return result
    }
}
