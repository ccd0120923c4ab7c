// MARK: - Identifiers encode as their bare number (a snapshot holds hundreds of thousands of them)

extension DriverID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try BareNumber.decode(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try BareNumber.encode(rawValue, to: encoder) }
}

extension RequestID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try BareNumber.decode(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try BareNumber.encode(rawValue, to: encoder) }
}

extension CustomerID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try BareNumber.decode(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try BareNumber.encode(rawValue, to: encoder) }
}

extension ZoneID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try BareNumber.decode(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try BareNumber.encode(index, to: encoder) }
}

/// An identifier's coding: its number alone, in a single-value container.
private enum BareNumber {
    static func decode(from decoder: any Decoder) throws -> Int { try decoder.singleValueContainer().decode(Int.self) }

    static func encode(_ number: Int, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(number)
    }
}
