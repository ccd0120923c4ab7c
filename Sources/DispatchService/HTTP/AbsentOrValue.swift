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
