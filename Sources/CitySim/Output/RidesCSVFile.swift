import Foundation
import RoadNetwork

extension ResultWriter {
    /// `rides.csv` written while the run goes on: pass it to `CitySimulation.run(streamingRidesTo:then:)`, then
    /// ``write(_:to:outputs:ridesWritten:)`` with `ridesWritten`. The rows go to `rides.csv.partial`, which
    /// becomes `rides.csv` once the last row is written; a run or a write that fails leaves neither, so a
    /// folder never holds a `rides.csv` cut short.
    ///
    /// Invariant: the file holds the header and the rows written so far, in id order, byte for byte what
    /// ``ridesCSV(_:)`` gives for them, apart from the chunk not yet flushed (at most `ridesChunkBytes`).
    public final class RidesCSVFile: RideRowsStream, @unchecked Sendable {
        /// The file's place once complete.
        public let url: URL
        private let partial: URL
        private var handle: FileHandle?
        private var chunk = CSVBytes(capacity: ResultWriter.ridesChunkBytes + 4096)
        private var projection: LocalProjection?

        /// - Parameter directory: where `rides.csv` goes (created when the run starts).
        public init(into directory: URL) {
            url = directory.appendingPathComponent("rides.csv")
            partial = directory.appendingPathComponent("rides.csv.partial")
        }

        /// A file operation failed: the file it was for, and why.
        public struct WriteError: Error, CustomStringConvertible {
            public let path: String
            public let reason: any Error
            public var description: String { "writing \(path): \(reason)" }
        }

        public func start(roads: RoadGraph?) throws {
            try naming(partial) {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path])
                }
                handle = try FileHandle(forWritingTo: partial)
            }
            projection = roads?.projection
            chunk.text(ResultWriter.ridesCSVHeader(projected: projection != nil))
        }

        public func write(_ rows: RunResult.RideRows, _ batch: Range<Int>) throws {
            guard let handle else { preconditionFailure("rides.csv written before it was started") }
            try naming(partial) { try ResultWriter.appendRows(rows, batch, projection, to: &chunk, flushingTo: handle) }
        }

        public func finish(complete: Bool) throws {
            defer { handle = nil }
            guard let handle else { return }
            guard complete else {
                try? handle.close()
                try? FileManager.default.removeItem(at: partial)
                return
            }
            do {
                try naming(partial) {
                    try chunk.flush(to: handle)
                    try handle.close()
                }
                try naming(url) {
                    if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
                    try FileManager.default.moveItem(at: partial, to: url)
                }
            } catch {
                try? FileManager.default.removeItem(at: partial)
                throw error
            }
        }

        private func naming<T>(_ file: URL, _ body: () throws -> T) throws -> T {
            do { return try body() } catch { throw WriteError(path: file.path, reason: error) }
        }
    }
}
