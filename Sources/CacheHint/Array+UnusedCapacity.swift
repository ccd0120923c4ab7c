extension Array {
    /// The array's room past its last element, up to its capacity, as an address range (empty when it has none).
    /// Only an address: the range holds no initialised element, and it is stale once the array grows past its
    /// capacity or is copied. For a host that has the pages mapped ahead of use (`citysim_populate_pages`).
    public var unusedCapacity: UnsafeRawBufferPointer {
        let room = capacity - count
        guard room > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return withUnsafeBufferPointer { buffer in
            guard let first = buffer.baseAddress else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: UnsafeRawPointer(first + buffer.count), count: room * MemoryLayout<Element>.stride)
        }
    }
}
