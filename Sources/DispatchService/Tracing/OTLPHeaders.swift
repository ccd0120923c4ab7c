import Foundation

/// The extra HTTP headers of every OTLP export request, as `OTEL_EXPORTER_OTLP_HEADERS` gives them: W3C
/// Baggage-like `key1=value1,key2=value2`, blanks around keys and values ignored, values (and keys)
/// percent-decoded, empty entries skipped. Typically an `authorization` header for a hosted collector.
///
/// Invariant: every name is an HTTP field name (RFC 9110 token characters) and appears once, compared without
/// case; no value holds a control character (so no header can be smuggled in). A malformed list never parses,
/// and the reason it gives names an entry by its position and key, never by its value (values are secrets).
///
/// ```swift
/// let general = try OTLPHeaders(parsing: "authorization=Bearer%20abc,x-tenant=citysim")
/// let traces = try OTLPHeaders(parsing: "authorization=Bearer%20xyz")
/// general.overridden(by: traces)   // authorization: Bearer xyz, x-tenant: citysim
/// ```
public struct OTLPHeaders: Sendable, Equatable, Codable {
    /// One header: its name as given, its decoded value.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// The headers in the order given.
    public private(set) var fields: [Field] = []

    public init() {}

    /// Why a header list cannot be read.
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads `key1=value1,key2=value2`.
    /// - Throws: `Malformed`, naming the entry (by position and, when it is a valid name, key) and what is wrong.
    public init(parsing text: String) throws(Malformed) {
        let entries = text.split(separator: ",", omittingEmptySubsequences: false)
        for (index, entry) in entries.enumerated() {
            let position = "entry \(index + 1)"
            if entry.allSatisfy(\.isWhitespace) { continue }
            guard let equals = entry.firstIndex(of: "=") else {
                throw Malformed(description: "\(position) has no '=' (expected key=value pairs separated by commas)")
            }
            guard let name = Self.percentDecoded(Self.trimmed(entry[..<equals])), Self.isToken(name) else {
                throw Malformed(description: "\(position): the key is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~)")
            }
            guard let value = Self.percentDecoded(Self.trimmed(entry[entry.index(after: equals)...])) else {
                throw Malformed(description: "\(position) ('\(name)'): the value has a malformed %-escape")
            }
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7f }) else {
                throw Malformed(description: "\(position) ('\(name)'): the value holds a control character")
            }
            self = overridden(by: [Field(name: name, value: value)])
        }
    }

    /// These headers with `other`'s added, `other`'s value where both name a header (names compared without case).
    public func overridden(by other: OTLPHeaders) -> OTLPHeaders { overridden(by: other.fields) }

    private func overridden(by others: [Field]) -> OTLPHeaders {
        var result = self
        for field in others {
            if let index = result.fields.firstIndex(where: { $0.name.lowercased() == field.name.lowercased() }) {
                result.fields[index].value = field.value
            } else {
                result.fields.append(field)
            }
        }
        return result
    }

    // MARK: - Codable: the list's text

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description,
                                                    underlyingError: InvalidConfigValue(reason: error.description)))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fields.map { "\($0.name)=\(Self.percentEncoded($0.value))" }.joined(separator: ","))
    }

    // MARK: - Text

    private static func trimmed(_ text: Substring) -> Substring {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map(text.index(after:)) ?? start
        return text[start..<end]
    }

    /// `text` with its `%XX` escapes decoded; nil for a malformed escape or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? { String(text).removingPercentEncoding }

    /// RFC 3986's unreserved characters: the only ones ``percentEncoded(_:)`` leaves as they are.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with every byte outside RFC 3986's unreserved characters as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text  // nil only for invalid UTF-16, impossible here
    }

    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { isLetterOrDigit($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0) }
    }

    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
