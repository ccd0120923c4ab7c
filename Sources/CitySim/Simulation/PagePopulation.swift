import CCacheHint
import Dispatch

/// Has the kernel map the pages of storage reserved for the run ahead of the loop's first writes to them, on a
/// global dispatch queue (`citysim_populate_pages`: Linux's `MADV_POPULATE_WRITE`), so that those writes cost
/// the loop no page faults. The core's tables of ended requests and request ids (`DispatchCore
/// .unusedReservedStorage`) take one write per request: their first touches of fresh pages were ~5 % of the grid
/// city's loop thread (perf, session 34), at ~4 µs a fault in this VM.
///
/// Invariant: no memory's contents change, whatever the ranges (the kernel maps pages without writing, and a
/// stale or unmapped range is refused or maps pages no one reads), so a run's outputs are the same with or
/// without it; only the loop's faults move.
enum PagePopulation {
    /// Starts populating `ranges` on another core and returns at once.
    static func populateAhead(_ ranges: [UnsafeRawBufferPointer]) {
        let spans = ranges.compactMap { range in range.baseAddress.map { (UInt(bitPattern: $0), range.count) } }
        guard !spans.isEmpty else { return }
        DispatchQueue.global().async {
            for (address, bytes) in spans {
                if let start = UnsafeMutableRawPointer(bitPattern: address) { populate(start, bytes: bytes) }
            }
        }
    }

    /// Populates the whole pages of one range on the calling thread; false where the kernel could not (the
    /// pages then fault at their first write, as without it). `RideLog`'s chunks use it too.
    @discardableResult
    static func populate(_ start: UnsafeMutableRawPointer, bytes: Int) -> Bool {
        citysim_populate_pages(start, bytes) == 0
    }
}
