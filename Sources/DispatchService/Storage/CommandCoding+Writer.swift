import Foundation

extension CommandCoding.Mirror {
    /// The mirror as compact JSON with sorted keys, byte for byte what `JSONEncoder` with
    /// `.sortedKeys` and the log's non-finite strategy wrote before (a test compares the two),
    /// so logs written either way read the same. Written by hand because the log is encoded once
    /// per accepted command, inside the group commit, and `JSONEncoder` over seventeen optionals
    /// cost more than the command itself.
    ///
    /// - Complexity: O(length of the output).
    func json() throws -> String {
        var out = "{"
        var first = true
        func key(_ name: String) {
            out += first ? "\"" : ",\""
            first = false
            out += name
            out += "\":"
        }
        func add(_ name: String, _ value: Int?) { if let value { key(name); out += value.description } }
        func add(_ name: String, _ value: Double?) { if let value { key(name); out += Self.number(value) } }
        // Keys in the order `.sortedKeys` gives them (byte order; no two differ only by case).
        if let available { key("available"); out += available ? "true" : "false" }
        add("customer", customer)
        add("driver", driver)
        if let generation { key("generation"); out += generation.description }
        add("height", height)
        add("meetingTime", meetingTime)
        key("op"); out += "\"" + op + "\""              // ops are fixed ASCII names, nothing to escape
        add("patience", patience)
        if let reporter { key("reporter"); out += "\"" + reporter + "\"" }   // "customer" or "driver"
        add("request", request)
        if let taxiCode { key("taxiCode"); out += try JSONText.string(taxiCode) }
        if let timerKind { key("timerKind"); out += timerKind.description }
        add("toX", toX)
        add("toY", toY)
        add("width", width)
        add("x", x)
        add("y", y)
        if let zoneShape { key("zoneShape"); out += "\"" + zoneShape + "\"" }   // a fixed ASCII shape name
        add("zoneSide", zoneSide)
        out += "}"
        return out
    }

    /// A number as the log's `JSONEncoder` wrote it: the non-finite values as the strings its
    /// strategy names.
    static func number(_ value: Double) -> String {
        if let text = JSONText.number(value) { return text }
        return value.isNaN ? "\"nan\"" : value < 0 ? "\"-inf\"" : "\"inf\""
    }
}
