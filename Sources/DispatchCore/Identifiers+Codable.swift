// MARK: - Identifiers encode as their bare number (a snapshot holds hundreds of thousands of them)

extension DriverID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(Int.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension RequestID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(Int.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension CustomerID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(Int.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension ZoneID: Codable {
    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(Int.self)) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(index)
    }
}
