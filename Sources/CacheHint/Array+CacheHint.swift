import CCacheHint

extension Array {
    /// Starts loading element `index`'s bytes into the cache: a hint that reads and changes nothing, and does
    /// nothing for an index out of range. Mutating only to reach the buffer without the retain and release a
    /// read of a class's array property makes around a closure (5 % of megacity's loop thread once, perf).
    /// Inlined into the caller's module, so a hot loop pays no call for it.
    @inlinable @inline(__always)
    public mutating func prefetchElement(_ index: Int) {
        withUnsafeMutableBufferPointer { buffer in buffer.prefetchElement(index) }
    }
}

extension UnsafeMutableBufferPointer {
    /// Starts loading element `index`'s bytes into the cache: a hint that reads and changes nothing, and does
    /// nothing for an index out of range (an array's `prefetchElement`, for many elements under one look).
    @inlinable @inline(__always)
    public func prefetchElement(_ index: Int) {
        guard index >= 0, index < count else { return }
        citysim_prefetch_range(baseAddress.unsafelyUnwrapped + index, MemoryLayout<Element>.stride)
    }
}
