import Testing
@testable import DispatchService

/// The heap gauges of `GET /metrics` read glibc's `malloc_info` report.
@Suite struct ProcessHeapTests {
    /// A two-arena report of glibc 2.36, cut down: each arena's totals, then the process's.
    static let report = """
        <malloc version="1">
        <heap nr="0">
        <sizes>
        </sizes>
        <total type="fast" count="0" size="0"/>
        <total type="rest" count="1" size="129728"/>
        <system type="current" size="135168"/>
        <system type="max" size="135168"/>
        </heap>
        <heap nr="1">
        <sizes>
          <unsorted from="657" to="657" total="657" count="1"/>
        </sizes>
        <total type="fast" count="2" size="64"/>
        <total type="rest" count="2" size="131905"/>
        <system type="current" size="135168"/>
        <system type="max" size="135168"/>
        </heap>
        <total type="fast" count="2" size="64"/>
        <total type="rest" count="3" size="261633"/>
        <total type="mmap" count="1" size="401408"/>
        <system type="current" size="270336"/>
        <system type="max" size="270336"/>
        </malloc>
        """

    @Test func heapTotalsAreTheProcessWideOnesNotTheFirstArenas() {
        let heap = ProcessHeap.parse(Self.report)
        #expect(heap == ProcessHeap(held: 270_336 + 401_408, free: 64 + 261_633))
        #expect(heap?.inUse == 270_336 + 401_408 - 64 - 261_633)
    }

    @Test func aReportWithoutTotalsGivesNoHeap() {
        #expect(ProcessHeap.parse("<malloc version=\"1\">\n</malloc>") == nil)
    }

    @Test func thisProcessHasAHeapInUse() {
        #if canImport(Glibc)
        let heap = ProcessHeap.current()
        #expect((heap?.inUse ?? 0) > 0)
        #expect((heap?.free ?? -1) >= 0)
        #endif
    }
}
