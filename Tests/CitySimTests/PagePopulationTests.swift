#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import CitySim

/// `PagePopulation` has the kernel map reserved pages ahead of the loop's first writes to them, without
/// changing a byte (the loop may be writing into the same range on its own core).
@Suite struct PagePopulationTests {
    private let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// How many of the `pages` pages from `base` are mapped (`mincore`).
    private func mappedPages(_ base: UnsafeMutableRawPointer, _ pages: Int) -> Int {
        var vector = [UInt8](repeating: 0, count: pages)
        let status = vector.withUnsafeMutableBufferPointer { mincore(base, pages * page, $0.baseAddress) }
        return status == 0 ? vector.count(where: { $0 & 1 == 1 }) : -1
    }

    @Test func aRangesWholePagesAreMappedAndKeepTheirBytes() throws {
        let pages = 64
        let mapping = mmap(nil, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        try #require(mapping != MAP_FAILED)
        let base = try #require(mapping)
        defer { munmap(base, pages * page) }
        base.storeBytes(of: 0xAB, toByteOffset: 5 * page + 7, as: UInt8.self)  // one page written before
        #expect(mappedPages(base, pages) == 1)

        // The range starts inside the first page and ends inside the last: only the whole pages between are mapped.
        let populated = PagePopulation.populate(base + 100, bytes: pages * page - 200)
        #expect(populated, "this kernel has no MADV_POPULATE_WRITE (Linux 5.14)")
        #expect(mappedPages(base, pages) == pages - 2)
        #expect(mappedPages(base, 1) == 0 && mappedPages(base + (pages - 1) * page, 1) == 0)
        #expect(base.load(fromByteOffset: 5 * page + 7, as: UInt8.self) == 0xAB)
        let bytes = UnsafeRawBufferPointer(start: base, count: pages * page)
        #expect(bytes.count(where: { $0 != 0 }) == 1)
    }

    @Test func aRunWithHelperThreadsHasTheCoresRoomForItsRequestsMappedAhead() throws {
        // ~2.4 M expected requests: the ended requests' room (16 bytes each) is larger than any block glibc's malloc
        // serves from memory it has used before (32 MiB), so it starts unmapped in every run of this test.
        let path = scenariosDirectory.appendingPathComponent("rush-hour.yaml").path
        let scenario = try Scenario.load(path: path, overrides: ["demand.requests_per_hour=100000"])
        for helpers in [false, true] {
            let sim = try CitySimulation(scenario: scenario)
            sim.usesHelperThreads = helpers
            try sim.begin()
            let rooms = sim.core.unusedReservedStorage()  // the core's ended requests, then its directory
            try #require(rooms.count == 2 && rooms[0].count > 33 << 20)
            let spans = rooms.map { room -> (UnsafeMutableRawPointer, Int) in  // each room's whole pages
                let start = (UInt(bitPattern: room.baseAddress!) + UInt(page) - 1) / UInt(page) * UInt(page)
                let end = (UInt(bitPattern: room.baseAddress!) + UInt(room.count)) / UInt(page) * UInt(page)
                return (UnsafeMutableRawPointer(bitPattern: start)!, Int(end - start) / page)
            }
            if helpers {  // mapped on another core soon after the start
                let deadline = Date().addingTimeInterval(10)
                var mapped = spans.map { mappedPages($0.0, $0.1) }
                while mapped != spans.map(\.1), Date() < deadline {
                    usleep(2_000)
                    mapped = spans.map { mappedPages($0.0, $0.1) }
                }
                #expect(mapped == spans.map(\.1))
            } else {  // left to fault at the loop's first writes
                usleep(50_000)
                #expect(mappedPages(spans[0].0, spans[0].1) == 0)
            }
        }
    }

    @Test func aRangeWithNoWholePageOrNotMappedMapsNothing() throws {
        let mapping = mmap(nil, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        try #require(mapping != MAP_FAILED)
        let base = try #require(mapping)
        defer { munmap(base, 3 * page) }
        #expect(PagePopulation.populate(base + 8, bytes: page))  // within pages 0 and 1
        #expect(mappedPages(base, 2) == 0)
        munmap(base + 2 * page, page)  // a stale range: the kernel refuses it
        #expect(!PagePopulation.populate(base + 2 * page, bytes: page))
    }
}
#endif
