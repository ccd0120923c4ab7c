/// Optional request fields: absent means "not given", but an explicit `null` is not a value of the
/// documented type (the OpenAPI document declares no nullable field), so it is refused as a type error.
extension KeyedDecodingContainer {
    /// nil when `key` is absent, the value when present; throws `DecodingError.valueNotFound` for `null`.
    func decodeUnlessNull<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { return nil }
        if try decodeNil(forKey: key) {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key as any CodingKey],
                                                            debugDescription: "\(key.stringValue) must not be null"))
        }
        return try decode(T.self, forKey: key)
    }
}

/// An optional request field that may be left out but not sent as `null`: `@Omittable var name: String?`.
/// Its `Decodable` conformance comes from the synthesized one of the body, through the
/// `KeyedDecodingContainer.decode(_:forKey:)` overload below.
///
/// Invariant: `wrappedValue` is nil exactly when the key was absent; a `null` fails decoding with
/// `DecodingError.valueNotFound` at the key, like any value of the wrong type.
@propertyWrapper
struct Omittable<Value: Decodable>: Decodable {
    var wrappedValue: Value?

    init(wrappedValue: Value? = nil) { self.wrappedValue = wrappedValue }

    /// Only reached for a body decoded outside a keyed container; `null` is refused there too.
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            throw DecodingError.valueNotFound(Value.self, .init(codingPath: decoder.codingPath, debugDescription: "must not be null"))
        }
        wrappedValue = try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// Synthesized `init(from:)` calls this for `@Omittable` properties: absent → nil, `null` → error.
    func decode<Value>(_ type: Omittable<Value>.Type, forKey key: Key) throws -> Omittable<Value> {
        Omittable(wrappedValue: try decodeUnlessNull(Value.self, forKey: key))
    }
}

extension Omittable: Sendable where Value: Sendable {}
