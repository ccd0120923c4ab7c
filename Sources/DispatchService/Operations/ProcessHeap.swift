import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The C allocator's totals over all its arenas, for `GET /metrics`: what malloc holds from the
/// system and how much of it is free chunks. RSS near `held` with much `free` is memory malloc
/// keeps rather than memory the service uses.
///
/// glibc only (its `malloc_info` report and `malloc_trim`, looked up at run time since Swift's
/// Glibc module leaves out `malloc.h`); elsewhere `current()` is nil and `trim()` does nothing.
struct ProcessHeap: Equatable {
    /// Bytes the arenas hold from the system, plus chunks mmapped on their own.
    var held: Int
    /// Bytes in free chunks still held by the arenas.
    var free: Int
    /// Bytes in allocated chunks (`held - free`).
    var inUse: Int { held - free }

    /// The totals of glibc's `malloc_info` report; nil where there is no glibc.
    static func current() -> ProcessHeap? {
        #if canImport(Glibc)
        typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(nil, "malloc_info") else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let file = open_memstream(&buffer, &size) else { return nil }
        _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, file)
        fclose(file)
        defer { Glibc.free(buffer) }
        return buffer.flatMap { parse(String(cString: $0)) }
        #else
        return nil
        #endif
    }

    /// Reads the process-wide totals: the last `<total type="fast|rest|mmap">` and
    /// `<system type="current">` elements of a `malloc_info` report (each arena's come first).
    static func parse(_ report: String) -> ProcessHeap? {
        func lastSize(_ prefix: String) -> Int? {
            guard let element = report.components(separatedBy: "<").last(where: { $0.hasPrefix(prefix) }),
                  let range = element.range(of: "size=\"") else { return nil }
            return Int(element[range.upperBound...].prefix { $0.isNumber })
        }
        guard let fast = lastSize("total type=\"fast\""), let rest = lastSize("total type=\"rest\""),
              let system = lastSize("system type=\"current\"") else { return nil }
        let mmapped = lastSize("total type=\"mmap\"") ?? 0
        return ProcessHeap(held: system + mmapped, free: fast + rest)
    }
}

extension ProcessHeap {
    /// Seconds between `trim()`s in a running service: `CITYSIM_MALLOC_TRIM_S` (0 = never), else 60.
    static var trimInterval: Double {
        Double(ProcessInfo.processInfo.environment["CITYSIM_MALLOC_TRIM_S"] ?? "") ?? 60
    }

    /// Gives the free pages that malloc's arenas hold back to the system (glibc `malloc_trim(0)`;
    /// without it glibc returns only the free memory at the top of each arena, so RSS keeps the
    /// high-water mark of every arena the request threads used). Changes no allocation, only RSS.
    /// - Complexity: O(free chunks); it locks one arena at a time.
    static func trim() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    /// Makes malloc serve every block of at least `bytes` by an mmap of its own (glibc
    /// `mallopt(M_MMAP_THRESHOLD, bytes)`), which goes back to the system as soon as it is freed.
    /// By default glibc raises that threshold to the size of each large block freed (up to 32 MiB), so
    /// later large blocks come from the arenas and stay there: a checkpoint's buffers (tens of MiB, and
    /// the copies of the core's tables a snapshot causes) grew the arenas' free memory by ~100 MiB per
    /// checkpoint in a soak at 1,000 rides/s. A fixed threshold also ends that adjustment.
    static func mapBlocks(atLeast bytes: Int) {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in malloc.h
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mmapThreshold, Int32(clamping: bytes))
        #endif
    }

    /// Trims every `seconds` until the task is cancelled.
    static func trimPeriodically(every seconds: Double) async {
        guard seconds > 0 else { return }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(seconds))
            trim()
        }
    }
}
