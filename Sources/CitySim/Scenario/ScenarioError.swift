/// A scenario file that cannot be loaded: which file, which key, and why.
///
/// Every loader error names the file, the key path inside it (for example
/// `fleet.shifts[2].taxis`) and the reason (the expected type or range, or
/// `unknown key 'foo' (known: a, b, c)`). When the position is known the
/// 1-based line in the file is given too; YAML syntax errors always have one.
///
/// ```swift
/// do { _ = try Scenario.load(path: "Scenarios/smoke.yaml") }
/// catch { print(error) }   // Scenarios/smoke.yaml:25: fleet.shifts[0].taxis: expected an integer >= 0, got 'many'
/// ```
public struct ScenarioError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The scenario file (path as given to the loader, or the `file` label of `load(yaml:file:)`).
    public var file: String
    /// Dotted key path of the offending value, `[i]` for sequence elements; empty for the whole document.
    public var keyPath: String
    /// Why the value was rejected.
    public var reason: String
    /// 1-based line in `file`, when known (nil for values that came from an override).
    public var line: Int?

    /// Creates an error; see the properties for the meaning of each field.
    public init(file: String, keyPath: String, reason: String, line: Int? = nil) {
        self.file = file
        self.keyPath = keyPath
        self.reason = reason
        self.line = line
    }

    /// `file:line: key.path: reason` (line and key path omitted when unknown or empty).
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if !keyPath.isEmpty { text += "\(keyPath): " }
        return text + reason
    }
}
