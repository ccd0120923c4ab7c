import TripPlanner
import Yams

/// A day file that cannot be loaded: the file, the line when known, the key path and why.
///
/// Its description reads `file:line: key.path: reason`, like `ScenarioError`'s.
public struct DayFileError: Error, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var keyPath: String
    public var reason: String

    public var description: String {
        "\(file)" + (line.map { ":\($0)" } ?? "") + (keyPath.isEmpty ? "" : ": \(keyPath)") + ": \(reason)"
    }
}

/// Reads one value of a day file strictly, knowing its key path for errors (the pattern of
/// CitySim's scenario reader: unknown keys, wrong kinds and out-of-range numbers are errors).
struct DayValue {
    let file: String
    let path: String
    let node: Node

    static func parse(yaml: String, file: String) throws -> DayValue {
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                throw DayFileError(file: file, line: nil, keyPath: "", reason: "empty file")
            }
            return DayValue(file: file, path: "", node: node)
        } catch let error as DayFileError {
            throw error
        } catch {
            throw DayFileError(file: file, line: nil, keyPath: "", reason: "YAML syntax error: \(error)")
        }
    }

    func error(_ reason: String) -> DayFileError {
        DayFileError(file: file, line: node.mark?.line, keyPath: path, reason: reason)
    }

    private var kind: String {
        switch node {
        case .scalar(let scalar): return "'\(scalar.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a sequence"
        default: return "an alias"
        }
    }

    /// The entries of a mapping whose keys must all be in `known`.
    func mapping(_ known: [String]) throws -> DayMapping {
        guard case .mapping(let mapping) = node else { throw error("expected a mapping, got \(kind)") }
        var entries: [String: DayValue] = [:]
        for (key, value) in mapping {
            let name = key.scalar?.string ?? ""
            let child = DayValue(file: file, path: path.isEmpty ? name : "\(path).\(name)", node: value)
            guard known.contains(name) else {
                throw DayValue(file: file, path: child.path, node: key)
                    .error("unknown key '\(name)' (known: \(known.joined(separator: ", ")))")
            }
            entries[name] = child
        }
        return DayMapping(value: self, entries: entries)
    }

    func sequence() throws -> [DayValue] {
        guard case .sequence(let sequence) = node else { throw error("expected a sequence, got \(kind)") }
        return sequence.enumerated().map { DayValue(file: file, path: "\(path)[\($0.offset)]", node: $0.element) }
    }

    func string() throws -> String {
        guard case .scalar(let scalar) = node else { throw error("expected a string, got \(kind)") }
        return scalar.string
    }

    func double(_ range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws -> Double {
        guard case .scalar(let scalar) = node, scalar.style == .plain || scalar.style == .any,
              let value = Double(scalar.string), value.isFinite else { throw error("expected a number, got \(kind)") }
        guard range.contains(value) else { throw error("expected a number in [\(range.lowerBound), \(range.upperBound)], got \(value)") }
        return value
    }

    func int(_ range: ClosedRange<Int>) throws -> Int {
        guard case .scalar(let scalar) = node, let value = Int(scalar.string) else { throw error("expected an integer, got \(kind)") }
        guard range.contains(value) else { throw error("expected an integer in [\(range.lowerBound), \(range.upperBound)], got \(value)") }
        return value
    }

    func bool() throws -> Bool {
        switch try string() {
        case "true": return true
        case "false": return false
        default: throw error("expected true or false, got \(kind)")
        }
    }

    /// A clock time `HH:MM`, in seconds since midnight.
    func clock() throws -> Double {
        guard let seconds = ClockTime.seconds(try string()) else { throw error("expected a time HH:MM, got \(kind)") }
        return seconds
    }

    /// One of the raw values of `Choice`.
    func choice<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) throws -> Choice where Choice.RawValue == String {
        let text = try string()
        guard let value = Choice(rawValue: text) else {
            throw error("unknown value '\(text)' (known: \(Choice.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return value
    }
}

/// The checked entries of a mapping.
struct DayMapping {
    let value: DayValue
    let entries: [String: DayValue]

    subscript(key: String) -> DayValue? {
        guard let child = entries[key] else { return nil }
        if case .scalar(let scalar) = child.node, scalar.style == .plain, ["", "~", "null"].contains(scalar.string) { return nil }
        return child
    }

    func required(_ key: String) throws -> DayValue {
        guard let child = self[key] else {
            throw DayFileError(file: value.file, line: value.node.mark?.line,
                               keyPath: value.path.isEmpty ? key : "\(value.path).\(key)", reason: "missing required key '\(key)'")
        }
        return child
    }
}
