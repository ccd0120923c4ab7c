import CompressNIO
import NIOCore

/// The files of a ZIP archive (PKWARE APPNOTE 6.3), read whole from memory: stored (method 0) and
/// deflated (method 8, inflated by zlib through compress-nio) entries, each checked against its
/// CRC-32 and size. No ZIP64, no encryption, no multi-disk archives: those are refused with a reason.
///
/// Invariant: `entries` are the central directory's file entries (folders left out) in its order,
/// and `contents(of:)` returns exactly the bytes whose size and CRC-32 the directory records.
///
/// ```swift
/// let archive = try ZipArchive(bytes: Array(data))
/// let stops = try archive.contents(of: archive.entries.first { $0.name == "stops.txt" }!)
/// ```
struct ZipArchive {
    struct Entry: Equatable {
        /// The path inside the archive, `/`-separated.
        var name: String
        var method: UInt16
        var compressedSize: Int
        var size: Int
        var crc32: UInt32
        var localHeaderOffset: Int
    }

    /// Why an archive or one of its entries cannot be read.
    struct Failure: Error, Equatable { var reason: String }

    let bytes: [UInt8]
    let entries: [Entry]

    /// Reads the central directory.
    /// - Throws: `Failure` for a file that is not a ZIP archive, a ZIP64 or split archive, or a directory
    ///   that runs past the end of the file.
    /// - Complexity: O(size of the central directory), after a backwards search of at most 64 KiB for its end.
    init(bytes: [UInt8]) throws(Failure) {
        self.bytes = bytes
        let reader = Reader(bytes: bytes)
        // End of central directory: 22 bytes plus a comment of up to 65,535.
        guard bytes.count >= 22 else { throw Failure(reason: "not a ZIP archive (too short)") }
        var end = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while end >= lowest, reader.u32(end) != 0x0605_4b50 { end -= 1 }
        guard end >= lowest else { throw Failure(reason: "not a ZIP archive (no end of central directory)") }
        guard reader.u16(end + 4) == 0, reader.u16(end + 6) == 0 else { throw Failure(reason: "split archives are not supported") }
        let count = Int(reader.u16(end + 10)), directorySize = Int(reader.u32(end + 12))
        let directoryOffset = Int(reader.u32(end + 16))
        guard count != 0xFFFF, directorySize != 0xFFFF_FFFF, directoryOffset != 0xFFFF_FFFF else {
            throw Failure(reason: "ZIP64 archives are not supported")
        }
        guard directoryOffset + directorySize <= end else { throw Failure(reason: "the central directory runs past its end") }
        var entries: [Entry] = []
        var offset = directoryOffset
        for _ in 0..<count {
            guard offset + 46 <= end, reader.u32(offset) == 0x0201_4b50 else {
                throw Failure(reason: "bad central directory entry at byte \(offset)")
            }
            let nameLength = Int(reader.u16(offset + 28)), extraLength = Int(reader.u16(offset + 30))
            let commentLength = Int(reader.u16(offset + 32))
            guard offset + 46 + nameLength <= end else { throw Failure(reason: "bad central directory entry at byte \(offset)") }
            let name = String(decoding: bytes[offset + 46..<offset + 46 + nameLength], as: UTF8.self)
            if reader.u16(offset + 8) & 1 != 0 { throw Failure(reason: "\(name): encrypted entries are not supported") }
            let entry = Entry(name: name, method: reader.u16(offset + 10), compressedSize: Int(reader.u32(offset + 20)),
                              size: Int(reader.u32(offset + 24)), crc32: reader.u32(offset + 16),
                              localHeaderOffset: Int(reader.u32(offset + 42)))
            if !name.hasSuffix("/") { entries.append(entry) }
            offset += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The bytes of `entry`.
    /// - Throws: `Failure` naming the entry: an unsupported method, data past the end of the archive,
    ///   corrupt deflate data, or a size or CRC-32 other than the directory's.
    func contents(of entry: Entry) throws(Failure) -> [UInt8] {
        let reader = Reader(bytes: bytes)
        let header = entry.localHeaderOffset
        guard header + 30 <= bytes.count, reader.u32(header) == 0x0403_4b50 else {
            throw Failure(reason: "\(entry.name): bad local header")
        }
        let start = header + 30 + Int(reader.u16(header + 26)) + Int(reader.u16(header + 28))
        guard start + entry.compressedSize <= bytes.count else { throw Failure(reason: "\(entry.name): data runs past the end of the archive") }
        let stored = Array(bytes[start..<start + entry.compressedSize])
        let data: [UInt8]
        switch entry.method {
        case 0:
            data = stored
        case 8:
            var input = ByteBuffer(bytes: stored)
            var output = ByteBufferAllocator().buffer(capacity: entry.size)
            do { try input.decompress(to: &output, with: .deflate) } catch {
                throw Failure(reason: "\(entry.name): corrupt deflate data or a size other than the directory's \(entry.size) bytes")
            }
            data = output.readBytes(length: output.readableBytes) ?? []
        default:
            throw Failure(reason: "\(entry.name): compression method \(entry.method) is not supported (only stored and deflate)")
        }
        guard data.count == entry.size else {
            throw Failure(reason: "\(entry.name): \(data.count) bytes, the directory says \(entry.size)")
        }
        guard CRC32.checksum(data) == entry.crc32 else { throw Failure(reason: "\(entry.name): CRC-32 mismatch (corrupt archive)") }
        return data
    }

    /// Little-endian integers at byte offsets (callers keep offsets inside the bytes).
    private struct Reader {
        let bytes: [UInt8]
        func u16(_ at: Int) -> UInt16 {
            guard at >= 0, at + 2 <= bytes.count else { return 0 }
            return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) -> UInt32 {
            guard at >= 0, at + 4 <= bytes.count else { return 0 }
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
    }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as ZIP records it.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// - Complexity: O(n).
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
