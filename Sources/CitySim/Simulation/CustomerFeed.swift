import CCacheHint
import Foundation

/// A run's synthetic customers drawn ahead on a second thread: each customer's draws (`CustomerDraw`,
/// then `RideDraw`), their origin's zone and the time of the next arrival, handed to the event loop in
/// blocks while it works on the customers before them.
///
/// In a run that uses it, nothing else reads the demand streams (arrivals, places, reservations,
/// patience) or the ride-times stream, and each stream is drawn in the same order as when the loop
/// draws every customer as they arrive. So the run's outputs are the same either way (`HelperThreadTests`).
/// The producer has its own `CityModel` (the destination draw keeps a scratch buffer); the two threads
/// share nothing mutable but the blocks, handed over under a lock.
///
/// Invariant: `next()` gives the customers in arrival order, each exactly once, then throws the draw's
/// error if one failed; the loop stops asking after a customer whose `nextArrival` is nil. The producer
/// holds the feed until it exits, so its owner calls `stop()` when the run ends or is dropped.
final class CustomerFeed: @unchecked Sendable {
    /// One customer: their draws and when the customer after them arrives.
    struct Customer {
        var draw: CustomerDraw
        var ride: RideDraw
        /// The zone of the customer's origin (`RideRecord.originZone`).
        var originZone: Int
        /// The next customer's arrival time, or nil when none comes before the horizon.
        var nextArrival: Double?
    }

    /// What the producer draws with. Unchecked: handed to the producer thread, which alone touches
    /// these (streams and a city of its own) once the feed starts.
    struct Sources: @unchecked Sendable {
        let city: CityModel
        let demand: DemandProcess
        let horizon: Double
        let customers: CustomerDraw.Parameters
        let rides: RideDraw.Parameters
        let arrivals, places, reservations, patience, rideTimes: RandomStream
    }

    static let blockSize = 1_024
    /// The producer thread's name (`ThreadName`).
    static let threadName = "citysim-feed"
    /// Blocks drawn ahead at most (about 130 KB each).
    static let blocksAhead = 4

    private let channel = BlockChannel<Customer>(capacity: blocksAhead, blockSize: blockSize)
    /// Set by the producer before it finishes the channel when a draw failed (the channel's lock orders it).
    private var failure: TripLengthError?
    // The loop's own:
    private var current: [Customer] = []
    /// `current`'s elements, read in place: `current` is not changed until the next block replaces it (and
    /// this view with it), so reading through it needs no retain of the block per customer.
    private var customers = UnsafeBufferPointer<Customer>(start: nil, count: 0)
    private var position = 0

    /// Starts drawing from the customer arriving at `firstArrival` (already drawn by the loop's thread).
    init(_ sources: Sources, firstArrival: Double) {
        let thread = Thread { [self] in
            ThreadName.setCurrent(Self.threadName)
            draw(sources, from: firstArrival)
        }
        thread.start()
    }

    /// The next customer, read in place: the pointer is valid until the next call (the block it points into
    /// goes back to the channel then). Returning the ~140-byte customer by value copied it twice per arrival
    /// (`memcpy`, 1.6 % of the grid city's loop thread, callgrind). Throws the error of a customer whose
    /// destination could not be drawn.
    func next() throws(TripLengthError) -> UnsafePointer<Customer> {
        while position == customers.count {
            customers = UnsafeBufferPointer(start: nil, count: 0)  // `current` goes back to the channel
            guard let block = channel.receive(returning: &current) else {
                guard let failure else { preconditionFailure("a customer asked for after the last one") }
                throw failure
            }
            current = block
            customers = current.withUnsafeBufferPointer { $0 }
            position = 0
        }
        defer { position += 1 }
        // The blocks are written on the producer's core: start loading the customer after next's cache
        // lines now, so the loop does not stall on them when it gets there.
        let ahead = position + 2
        if ahead < customers.count {
            citysim_prefetch_range(customers.baseAddress.unsafelyUnwrapped + ahead, MemoryLayout<Customer>.stride)
        }
        return customers.baseAddress.unsafelyUnwrapped + position
    }

    /// Tells the producer to stop (the run ended or was abandoned); it exits at its next block.
    func stop() { channel.close() }

    /// The producer: blocks of customers, in the order the loop would draw them, until the horizon,
    /// a failed draw or `stop()`.
    private func draw(_ s: Sources, from firstArrival: Double) {
        var time = firstArrival
        var block = channel.emptyBlock()
        while true {
            var last = false
            while block.count < Self.blockSize {
                let draw: CustomerDraw
                do {
                    draw = try CustomerDraw(at: time, s.customers, city: s.city, arrivals: s.arrivals, places: s.places,
                                            reservations: s.reservations, patienceRandom: s.patience)
                } catch {
                    failure = error
                    last = true
                    break
                }
                let next = s.demand.nextArrival(after: time, horizon: s.horizon, s.arrivals)
                block.append(Customer(draw: draw, ride: RideDraw(s.rides, s.rideTimes),
                                      originZone: s.city.zoneIndex(of: draw.origin), nextArrival: next))
                guard let next else {
                    last = true
                    break
                }
                time = next
            }
            guard channel.send(&block) else { return }
            if last {
                channel.finish()
                return
            }
        }
    }
}
