/// A CSV file with a header row (RFC 4180: quoted fields may hold commas, quotes as `""`
/// and line breaks), as GTFS uses. Rows keep their 1-based line number for errors.
struct CSVTable {
    let file: String
    let header: [String]
    /// Each row's fields and the line it starts on.
    let rows: [(line: Int, fields: [String])]

    /// - Throws: `GTFSError` for an empty file, an unterminated quote or a row whose field
    ///   count differs from the header's.
    init(file: String, text: String) throws(GTFSError) {
        self.file = file
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false, atFieldStart = true
        var line = 1, recordLine = 1
        var characters = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let scalar = pending { pending = nil; return scalar }
            return characters.next()
        }
        while let scalar = next() {
            if quoted {
                if scalar == "\"" {
                    if let following = next() {
                        if following == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = following }
                    } else { quoted = false }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
            case ",":
                fields.append(field)
                field = ""
                atFieldStart = true
            case "\r":
                continue
            case "\n":
                fields.append(field)
                if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
                fields = []
                field = ""
                atFieldStart = true
                line += 1
                recordLine = line
            default:
                field.unicodeScalars.append(scalar)
                atFieldStart = false
            }
        }
        if quoted { throw GTFSError(file: file, line: recordLine, field: nil, reason: "unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            records.append((recordLine, fields))
        }
        guard let first = records.first else { throw GTFSError(file: file, line: 1, field: nil, reason: "empty file, expected a header row") }
        // A UTF-8 byte-order mark may precede the first column name.
        header = first.fields.map { $0.hasPrefix("\u{FEFF}") ? String($0.dropFirst()) : $0 }
            .map { $0.trimming(" ") }
        for record in records.dropFirst() where record.fields.count != header.count {
            throw GTFSError(file: file, line: record.line, field: nil,
                            reason: "expected \(header.count) fields as in the header, got \(record.fields.count)")
        }
        rows = Array(records.dropFirst())
    }

    /// The column index of `name`.
    /// - Throws: `GTFSError` naming the missing column.
    func column(_ name: String) throws(GTFSError) -> Int {
        guard let index = header.firstIndex(of: name) else {
            throw GTFSError(file: file, line: 1, field: name, reason: "missing required column '\(name)'")
        }
        return index
    }

    func optionalColumn(_ name: String) -> Int? { header.firstIndex(of: name) }
}

extension String {
    func trimming(_ set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}

/// A GTFS file that cannot be read: which file, line and field, and why.
public struct GTFSError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var field: String?
    public var reason: String

    public init(file: String, line: Int, field: String?, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    public var description: String {
        (line > 0 ? "\(file):\(line)" : file) + (field.map { ": field '\($0)'" } ?? "") + ": \(reason)"
    }
}
