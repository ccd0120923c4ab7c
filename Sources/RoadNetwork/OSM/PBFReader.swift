import CompressNIO
import Foundation
import NIOCore
import SwiftProtobuf

/// Reads OpenStreetMap `.osm.pbf` files: the blob envelope (`fileformat.proto`), zlib-compressed
/// or raw blobs (decompressed with compress-nio), and primitive blocks (`osmformat.proto`,
/// decoded with swift-protobuf) holding plain nodes, dense nodes, ways and relations.
///
/// Invariant: a file either reads completely or the reader throws a `RoadNetworkError` naming
/// the file, the byte offset of the bad blob and the reason; it never traps on bad bytes.
///
/// Usage:
/// ```swift
/// let extract = try PBFReader.read(bytes: data, file: "Helsinki.osm.pbf") { $0["highway"] != nil }
/// ```
public enum PBFReader {
    /// Features of `HeaderBlock.required_features` this reader understands.
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]
    /// The format's own limits: 64 KiB for a blob header, 32 MiB for a blob.
    static let maxHeaderSize = 64 * 1024
    static let maxBlobSize = 32 * 1024 * 1024

    /// Reads a whole file from disk.
    /// - Throws: `RoadNetworkError` when the file cannot be read or is not a valid PBF file.
    public static func read(path: String, keepWay: (_ tags: [String: String]) -> Bool = { _ in true }) throws -> OSMExtract {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RoadNetworkError.malformedFile(file: path, reason: "cannot read the file")
        }
        return try read(bytes: data, file: path, keepWay: keepWay)
    }

    /// Decodes a PBF file's bytes.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - file: the name used in error messages.
    ///   - keepWay: which ways to keep, by their tags (others are counted in `skippedWays`).
    /// - Complexity: O(size of the file).
    public static func read(bytes: Data, file: String, keepWay: (_ tags: [String: String]) -> Bool = { _ in true }) throws -> OSMExtract {
        var extract = OSMExtract()
        var offset = 0
        var sawHeader = false
        let total = bytes.count
        let start = bytes.startIndex
        while offset < total {
            guard total - offset >= 4 else {
                throw RoadNetworkError.malformedFile(file: file, reason: "truncated blob header length at byte \(offset)")
            }
            var headerLength = 0
            for i in 0..<4 { headerLength = headerLength << 8 | Int(bytes[start + offset + i]) }
            offset += 4
            guard headerLength > 0, headerLength <= maxHeaderSize, offset + headerLength <= total else {
                throw RoadNetworkError.malformedFile(file: file, reason: "blob header length \(headerLength) at byte \(offset - 4) is out of range")
            }
            let header: OSMPBF_BlobHeader
            do {
                header = try OSMPBF_BlobHeader(serializedBytes: bytes[(start + offset)..<(start + offset + headerLength)])
            } catch {
                throw RoadNetworkError.malformedFile(file: file, reason: "blob header at byte \(offset): \(error)")
            }
            offset += headerLength
            let size = Int(header.datasize)
            guard size >= 0, size <= maxBlobSize, offset + size <= total else {
                throw RoadNetworkError.malformedFile(file: file, reason: "blob size \(size) at byte \(offset) is out of range")
            }
            let payload = try blobPayload(bytes[(start + offset)..<(start + offset + size)], file: file, at: offset)
            switch header.type {
            case "OSMHeader":
                try checkHeader(payload, file: file, at: offset)
                sawHeader = true
            case "OSMData":
                guard sawHeader else {
                    throw RoadNetworkError.malformedFile(file: file, reason: "data blob at byte \(offset) before the OSMHeader blob")
                }
                let block: OSMPBF_PrimitiveBlock
                do { block = try OSMPBF_PrimitiveBlock(serializedBytes: payload) } catch {
                    throw RoadNetworkError.malformedFile(file: file, reason: "primitive block at byte \(offset): \(error)")
                }
                try PrimitiveBlockDecoder(block: block, file: file, offset: offset).decode(into: &extract, keepWay: keepWay)
            default:
                break  // Unknown blob types are skipped, as the format asks.
            }
            offset += size
        }
        guard sawHeader else {
            throw RoadNetworkError.malformedFile(file: file, reason: "no OSMHeader blob (is this an .osm.pbf file?)")
        }
        return extract
    }

    /// The decompressed contents of one blob.
    static func blobPayload(_ bytes: Data, file: String, at offset: Int) throws -> Data {
        let blob: OSMPBF_Blob
        do { blob = try OSMPBF_Blob(serializedBytes: bytes) } catch {
            throw RoadNetworkError.malformedFile(file: file, reason: "blob at byte \(offset): \(error)")
        }
        switch blob.data {
        case .raw(let raw)?:
            return raw
        case .zlibData(let compressed)?:
            let rawSize = Int(blob.rawSize)
            guard rawSize > 0, rawSize <= maxBlobSize else {
                throw RoadNetworkError.malformedFile(file: file, reason: "zlib blob at byte \(offset) has raw_size \(rawSize)")
            }
            var input = ByteBuffer(bytes: compressed)
            var output = ByteBufferAllocator().buffer(capacity: rawSize)
            do { try input.decompress(to: &output, with: .zlib()) } catch {
                throw RoadNetworkError.malformedFile(file: file, reason: "zlib blob at byte \(offset) does not inflate: \(error)")
            }
            guard output.readableBytes == rawSize else {
                throw RoadNetworkError.malformedFile(file: file, reason: "zlib blob at byte \(offset) inflates to \(output.readableBytes) bytes, raw_size says \(rawSize)")
            }
            return Data(output.readableBytesView)
        case .lzmaData?, .obsoleteBzip2Data?, .lz4Data?, .zstdData?:
            throw RoadNetworkError.unsupportedFeature(file: file, feature: "blob compression other than zlib at byte \(offset)")
        case nil:
            throw RoadNetworkError.malformedFile(file: file, reason: "blob at byte \(offset) has no data")
        }
    }

    static func checkHeader(_ payload: Data, file: String, at offset: Int) throws {
        let header: OSMPBF_HeaderBlock
        do { header = try OSMPBF_HeaderBlock(serializedBytes: payload) } catch {
            throw RoadNetworkError.malformedFile(file: file, reason: "header block at byte \(offset): \(error)")
        }
        for feature in header.requiredFeatures where !supportedFeatures.contains(feature) {
            throw RoadNetworkError.unsupportedFeature(file: file, feature: "required feature \"\(feature)\"")
        }
    }
}
