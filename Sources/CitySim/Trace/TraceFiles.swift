import DispatchCore
import Foundation

/// Writes a recorded run for the viewer into a run folder: `trace.bin` (the records, see
/// `TraceRecord`), `trace.json` (what the records need: the city's size and zones, the number
/// of taxis, the horizon, the format) and `viewer.html` (the self-contained viewer page, which
/// reads the other two; `citysim view RUN_DIR` serves the folder to a browser).
///
/// Invariant: `trace.json`'s `records` × `record_bytes` is `trace.bin`'s size.
public enum TraceFiles {
    public struct Meta: Codable, Equatable, Sendable {
        public struct City: Codable, Equatable, Sendable {
            public var width: Double
            public var height: Double
            public var zoneSide: Double
            public var columns: Int
            public var rows: Int
            /// South-west corner of the whole zones (the city is clipped to whole zones, centred).
            public var minX: Double = 0, minY: Double = 0
            /// `square`, `hexagon` or `cut-squares`; the viewer tints and draws square grids only.
            public var zoneShape: String = "square"
        }
        public var format = "citysim-trace/1"
        public var recordBytes = TraceRecord.size
        public var records: Int
        public var scenario: String
        public var seed: UInt64
        public var horizonS: Double
        /// Taxi ids run from 0 to `taxis - 1`.
        public var taxis: Int
        public var city: City
    }

    /// The viewer page, a resource of this module.
    static var viewerPage: Data? {
        Bundle.module.url(forResource: "viewer", withExtension: "html").flatMap { try? Data(contentsOf: $0) }
    }

    /// Writes the three files of the recorded simulation into `folder` (created if needed).
    public static func write(_ recorder: TraceRecorder, of simulation: CitySimulation, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let geometry = simulation.city.geometry
        let meta = Meta(records: recorder.recordCount, scenario: simulation.scenario.name, seed: simulation.seed,
                        horizonS: simulation.horizon, taxis: simulation.drivers.count,
                        city: .init(width: geometry.width, height: geometry.height, zoneSide: geometry.zoneSide,
                                    columns: geometry.columns, rows: geometry.rows,
                                    minX: geometry.layout.bounds.minX, minY: geometry.layout.bounds.minY,
                                    zoneShape: geometry.zoneShape.rawValue))
        try Data(recorder.bytes).write(to: folder.appendingPathComponent("trace.bin"))
        try ResultWriter.json(meta).write(to: folder.appendingPathComponent("trace.json"))
        guard let page = viewerPage else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "viewer.html"]) }
        try page.write(to: folder.appendingPathComponent("viewer.html"))
    }
}
