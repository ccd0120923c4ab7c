import Synchronization

/// The process's table of polygon zone sets, so that `ZoneLayout` can name its zones by a small integer and
/// stay plain data (see `ZoneLayout.polygonSet`).
///
/// Invariant: a handle, once returned by `intern`, names the same zone set for the rest of the process;
/// equal zone sets (same polygons) get the same handle, so equal layouts compare equal and a sweep that
/// reads one GeoJSON file at every grid point keeps one copy of its zones. Zone sets are never freed: a
/// process lays a handful of distinct zone maps.
extension PolygonZones {
    private static let table = Mutex<[PolygonZones]>([])

    /// The handle of `zones`: the handle of an equal zone set interned earlier, or a new one.
    static func intern(_ zones: PolygonZones) -> Int32 {
        table.withLock { table in
            if let known = table.firstIndex(where: { $0 == zones }) { return Int32(known) }
            precondition(table.count < Int(Int32.max), "too many distinct polygon zone sets")
            table.append(zones)
            return Int32(table.count - 1)
        }
    }

    /// The zone set of handle `handle` (returned by `intern`).
    static func interned(_ handle: Int32) -> PolygonZones {
        table.withLock { $0[Int(handle)] }
    }
}
