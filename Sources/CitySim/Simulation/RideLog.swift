import CCacheHint
import Dispatch

/// Every request's `RideRecord` of a run, by id, in chunks of `chunkSize` records that never move once
/// allocated, so the records that can no longer change can be read on another thread while the run goes
/// on (`rides.csv` written during the run, `RidesAside`), and the log never copies its records as it grows.
/// It is a class: the loop's writes to a record go through a pointer, with no uniqueness check of an array.
///
/// A run with helper threads has each next chunk allocated and its pages mapped on another core, one chunk
/// ahead (`prefaultChunksAhead`): a fresh chunk's first touches cost the loop ~240 page faults otherwise,
/// about a tenth of the grid city's loop (perf).
///
/// Invariants:
/// - the records `0..<count` are initialised and lie in `chunks[id >> chunkShift]` at `id & chunkMask`;
/// - the records below `sealed` are final: every one has ended (`openSlot < 0`), and none is written again
///   (writes assert it), so a `Sealed` view of them may be read on any thread;
/// - only the run's thread calls the mutating members.
final class RideLog: RandomAccessCollection, @unchecked Sendable {
    static let chunkShift = 13
    static let chunkSize = 1 << chunkShift
    static let chunkMask = chunkSize - 1

    private var chunks: [UnsafeMutablePointer<RideRecord>] = []
    /// The next chunk, being made ready on another core, when the run uses helper threads.
    private var nextChunk: PrefaultedChunk?
    private(set) var count = 0
    /// The records below are final (see the invariants).
    private(set) var sealed = 0

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    deinit {
        for chunk in chunks { chunk.deallocate() }
        nextChunk?.take().deallocate()
    }

    /// From now on each next chunk is made ready on another core while the loop fills the one before.
    func prefaultChunksAhead() {
        if nextChunk == nil { nextChunk = PrefaultedChunk() }
    }

    subscript(id: Int) -> RideRecord {
        get {
            precondition(id >= 0 && id < count, "ride \(id) of \(count)")
            return Self.record(id, in: chunks).pointee
        }
        _modify {
            precondition(id >= 0 && id < count, "ride \(id) of \(count)")
            assert(id >= sealed, "ride \(id) written after it was sealed (below \(sealed))")
            let record = Self.record(id, in: chunks)  // the pointer, not the table, is written
            yield &record.pointee
        }
    }

    /// Starts loading record `id`'s cache lines (a hint: reads and changes nothing; ignored past the end).
    @inline(__always)
    func prefetch(_ id: Int) {
        guard id >= 0, id < count else { return }
        citysim_prefetch_range(Self.record(id, in: chunks), MemoryLayout<RideRecord>.stride)
    }

    /// Where record `id` lies in `chunks` (the log's table, or a `Sealed` copy of it).
    @inline(__always)
    fileprivate static func record(_ id: Int, in chunks: [UnsafeMutablePointer<RideRecord>]) -> UnsafeMutablePointer<RideRecord> {
        chunks[id &>> chunkShift] + (id & chunkMask)
    }

    /// Room for the chunks of `records` records in the chunk table (the chunks are allocated as they fill).
    func reserveCapacity(_ records: Int) { chunks.reserveCapacity((records + Self.chunkMask) >> Self.chunkShift) }

    /// Appends `record` with id `count`.
    func append(_ record: RideRecord) {
        if count & Self.chunkMask == 0 && count >> Self.chunkShift == chunks.count {
            if let next = nextChunk {
                chunks.append(next.take())
                nextChunk = PrefaultedChunk()
            } else {
                chunks.append(.allocate(capacity: Self.chunkSize))
            }
        }
        Self.record(count, in: chunks).initialize(to: record)
        count += 1
    }

    /// Forgets the last record (its request was refused); its chunk stays for the next one.
    func removeLast() {
        precondition(count > sealed, "removing a sealed ride")
        count -= 1
    }

    /// Seals the records from `sealed` on while they have ended, in id order (a request still open holds
    /// back every later one), and returns the new `sealed`.
    @discardableResult
    func sealEnded() -> Int {
        var id = sealed
        while id < count, Self.record(id, in: chunks).pointee.openSlot < 0 { id += 1 }
        sealed = id
        return id
    }

    /// Seals every record: the run is over, so none changes again (the open ones stay pending).
    func sealAll() { sealed = count }

    /// The sealed records, readable on any thread while the run goes on.
    func sealedRecords() -> Sealed { Sealed(log: self, chunks: chunks, count: sealed) }

    /// A run's first `count` records once sealed: they no longer change, so any thread may read them. It keeps
    /// the log (and so the chunks) alive, and holds its own copy of the chunk table, which the run's thread
    /// may grow meanwhile.
    struct Sealed: RandomAccessCollection, @unchecked Sendable {
        fileprivate let log: RideLog
        fileprivate let chunks: [UnsafeMutablePointer<RideRecord>]
        let count: Int

        var startIndex: Int { 0 }
        var endIndex: Int { count }

        subscript(id: Int) -> RideRecord {
            precondition(id >= 0 && id < count, "ride \(id) of \(count) sealed")
            return RideLog.record(id, in: chunks).pointee
        }
    }
}

/// One chunk of a `RideLog`, allocated and its pages mapped on a global dispatch queue, so that the kernel
/// maps its pages there and not at the loop's first writes.
///
/// Invariant: `take` returns the chunk once, after the helper has finished with it (the semaphore orders its
/// writes before the loop's).
private final class PrefaultedChunk: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var chunk: UnsafeMutablePointer<RideRecord>?

    init() {
        DispatchQueue.global().async { [self] in
            let chunk = UnsafeMutablePointer<RideRecord>.allocate(capacity: RideLog.chunkSize)
            let bytes = UnsafeMutableRawPointer(chunk), count = RideLog.chunkSize * MemoryLayout<RideRecord>.stride
            // One call maps the whole pages; the partial pages at either end, or every page where the kernel cannot
            // (`PagePopulation.populate` fails), are touched one by one.
            if PagePopulation.populate(bytes, bytes: count) {
                bytes.storeBytes(of: 0, toByteOffset: 0, as: UInt8.self)
            } else {
                for offset in stride(from: 0, to: count, by: 4096) { bytes.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self) }
            }
            bytes.storeBytes(of: 0, toByteOffset: count - 1, as: UInt8.self)
            self.chunk = chunk
            ready.signal()
        }
    }

    /// The chunk, waiting for the helper if it has not finished.
    func take() -> UnsafeMutablePointer<RideRecord> {
        ready.wait()
        defer { chunk = nil }
        return chunk!
    }
}
