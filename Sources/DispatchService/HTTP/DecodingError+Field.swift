/// Where in a request body a decoding error happened, on the wire's terms.
extension DecodingError {
    /// The wire path of the value at fault (`meeting_time`, `strikes[0].until`); nil when the body as a
    /// whole is wrong (not JSON, or not an object).
    var wireField: String? {
        let path: [any CodingKey]
        switch self {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): path = c.codingPath
        case .keyNotFound(let key, let c): path = c.codingPath + [key]
        @unknown default: path = []
        }
        guard !path.isEmpty else { return nil }
        let field = path.map { $0.intValue.map { "[\($0)]" } ?? "." + Self.snakeCase($0.stringValue) }.joined()
        return String(field.drop { $0 == "." })
    }

    /// Why, in one phrase: the missing key, a wrong type, or the reader's own reason for a bad value.
    var reason: String {
        switch self {
        case .keyNotFound: "missing"
        case .valueNotFound: "must not be null"
        case .typeMismatch: "wrong type"
        case .dataCorrupted(let c): c.debugDescription
        @unknown default: "wrong value"
        }
    }

    /// `durationMin` → `duration_min` (the wire name of a decoded key).
    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
        return result
    }
}
