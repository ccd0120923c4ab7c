/// The records of a comma-separated file, one at a time, with their 1-based line numbers.
///
/// RFC 4180 quoting (`"a, b"`, `""` for a quote) within a line; a line break inside quotes is an
/// error. CRLF and LF line ends; a UTF-8 byte-order mark is skipped; blank lines are skipped.
///
/// Invariant: `next` returns records in file order and never traps on any bytes.
struct CSVLines {
    /// One record: its fields (unquoted) and the line it was on.
    struct Record {
        var fields: [ArraySlice<UInt8>]
        var line: Int
    }

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    private static let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"),
                       carriageReturn = UInt8(ascii: "\r")

    /// The next non-blank record, or nil at the end of the file.
    /// - Throws: `TripFileError` for an unterminated quote.
    mutating func next(file: String) throws(TripFileError) -> Record? {
        while offset < bytes.count {
            line += 1
            var end = offset
            while end < bytes.count, bytes[end] != Self.newline { end += 1 }
            var stop = end
            if stop > offset, bytes[stop - 1] == Self.carriageReturn { stop -= 1 }
            let start = offset
            offset = end + 1
            if stop == start { continue }
            return Record(fields: try Self.fields(bytes[start..<stop], line: line, file: file), line: line)
        }
        return nil
    }

    private static func fields(_ text: ArraySlice<UInt8>, line: Int, file: String) throws(TripFileError) -> [ArraySlice<UInt8>] {
        guard text.contains(quote) else { return text.split(separator: comma, omittingEmptySubsequences: false) }
        var fields: [ArraySlice<UInt8>] = [], field: [UInt8] = [], i = text.startIndex, quoted = false
        while i < text.endIndex {
            let byte = text[i]
            if quoted {
                if byte == quote {
                    if i + 1 < text.endIndex, text[i + 1] == quote { field.append(quote); i += 1 } else { quoted = false }
                } else {
                    field.append(byte)
                }
            } else if byte == quote {
                quoted = true
            } else if byte == comma {
                fields.append(field[...])
                field = []
            } else {
                field.append(byte)
            }
            i += 1
        }
        guard !quoted else {
            throw TripFileError(file: file, line: line, column: nil, reason: "a quoted field is not closed on its line")
        }
        fields.append(field[...])
        return fields
    }
}
