import Foundation
import Synchronization

/// Every ride or reservation the service acknowledged (answered 201 with an id), with
/// the last status the client saw for it; optionally each acknowledgement and status
/// change is appended to a file as it happens (`id status` per line), so a crash test
/// can compare them with the server after killing and restarting it.
///
/// Invariant: an id is present once the service answered 201 for it; its status is the
/// latest one the client was told; the file, read back with `load(path:)`, gives the same map.
public final class AcknowledgedRides: Sendable {
    private let state = Mutex<[Int: String]>([:])
    private let file: Mutex<FileHandle?>

    /// - Parameter path: where to append acknowledgements (created or truncated), or nil.
    public init(path: String? = nil) throws {
        if let path {
            FileManager.default.createFile(atPath: path, contents: nil)
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
            file = Mutex(handle)
        } else {
            file = Mutex(nil)
        }
    }

    /// Notes that the service answered `status` for ride `id`.
    public func note(_ id: Int, _ status: String) {
        let changed = state.withLock { rides in
            defer { rides[id] = status }
            return rides[id] != status
        }
        guard changed else { return }
        file.withLock { handle in try? handle?.write(contentsOf: Data("\(id) \(status)\n".utf8)) }
    }

    public var rides: [Int: String] { state.withLock { $0 } }

    public func close() { file.withLock { try? $0?.close(); $0 = nil } }

    /// Reads a file written by `note`: the last status per id.
    public static func load(path: String) throws -> [Int: String] {
        var rides: [Int: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let id = Int(parts[0]) else { continue }
            rides[id] = String(parts[1])
        }
        return rides
    }
}
