import Yams

/// Where a value of the scenario tree came from: a line of the file or an override.
enum ScenarioNodeOrigin: Equatable {
    case line(Int?)
    case override(String)
}

/// The YAML document as a small mutable tree, so overrides can be applied before decoding.
///
/// Yams composes the file; this tree keeps only what strict decoding needs:
/// scalars (with whether they were quoted), mappings with string keys in file
/// order, sequences, nulls, and where each value came from.
struct ScenarioNode {
    enum Value {
        case null
        case scalar(String, quoted: Bool)
        case mapping([Entry])
        case sequence([ScenarioNode])
    }

    struct Entry {
        var key: String
        var keyOrigin: ScenarioNodeOrigin
        var node: ScenarioNode
    }

    var value: Value
    var origin: ScenarioNodeOrigin

    var line: Int? {
        if case .line(let line) = origin { return line }
        return nil
    }

    /// A short name of the node's YAML kind, for "expected X, got Y" messages.
    var kindName: String {
        switch value {
        case .null: return "null"
        case .scalar(let text, _): return "'\(text)'"
        case .mapping: return "a mapping"
        case .sequence: return "a sequence"
        }
    }
}

// MARK: - Parsing

extension ScenarioNode {
    /// Parses YAML text into a tree.
    /// - Throws: `ScenarioError` with the file and line of a syntax error.
    static func parse(yaml: String, file: String, origin: (Int?) -> ScenarioNodeOrigin = { .line($0) })
        throws(ScenarioError) -> ScenarioNode
    {
        let composed: Node?
        do {
            // `.basic`: scalars are read as text here (`convert`), so Yams' tag rules are not needed, and its
            // default resolver compiles seven regular expressions on first use (~2 ms of every process, perf).
            composed = try Yams.compose(yaml: yaml, .basic)
        } catch let error as YamlError {
            throw syntaxError(error, file: file)
        } catch {
            throw ScenarioError(file: file, keyPath: "", reason: "YAML syntax error: \(error)")
        }
        guard let composed else { return ScenarioNode(value: .null, origin: origin(1)) }
        return try convert(composed, file: file, path: "", origin: origin)
    }

    private static func syntaxError(_ error: YamlError, file: String) -> ScenarioError {
        func make(_ problem: String, _ mark: Mark?, _ context: YamlError.Context?) -> ScenarioError {
            var reason = "YAML syntax error: \(problem)"
            if let mark { reason += " (column \(mark.column))" }
            if let context, !context.text.isEmpty, context.text.count < 80 { reason += " \(context.text)" }
            return ScenarioError(file: file, keyPath: "", reason: reason, line: mark?.line)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            return make(problem, mark, context)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return ScenarioError(file: file, keyPath: "", reason: "YAML error: duplicated key \(keys)",
                                 line: context.mark.line)
        case .reader(let problem, let offset, _, _):
            return ScenarioError(file: file, keyPath: "",
                                 reason: "YAML reader error: \(problem) at offset \(offset ?? -1)", line: nil)
        default:
            return ScenarioError(file: file, keyPath: "", reason: "YAML error: \(error)")
        }
    }

    private static let nullSpellings: Set<String> = ["", "~", "null", "Null", "NULL"]

    private static func convert(_ node: Node, file: String, path: String, origin: (Int?) -> ScenarioNodeOrigin)
        throws(ScenarioError) -> ScenarioNode
    {
        switch node {
        case .scalar(let scalar):
            let quoted = scalar.style != .plain && scalar.style != .any
            if !quoted && nullSpellings.contains(scalar.string) {
                return ScenarioNode(value: .null, origin: origin(scalar.mark?.line))
            }
            return ScenarioNode(value: .scalar(scalar.string, quoted: quoted), origin: origin(scalar.mark?.line))
        case .sequence(let sequence):
            var elements: [ScenarioNode] = []
            for (index, element) in sequence.enumerated() {
                elements.append(try convert(element, file: file, path: "\(path)[\(index)]", origin: origin))
            }
            return ScenarioNode(value: .sequence(elements), origin: origin(sequence.mark?.line))
        case .mapping(let mapping):
            var entries: [Entry] = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw ScenarioError(file: file, keyPath: path, reason: "mapping keys must be plain strings",
                                        line: key.mark?.line)
                }
                let childPath = path.isEmpty ? keyScalar.string : "\(path).\(keyScalar.string)"
                entries.append(Entry(key: keyScalar.string, keyOrigin: origin(keyScalar.mark?.line),
                                     node: try convert(value, file: file, path: childPath, origin: origin)))
            }
            return ScenarioNode(value: .mapping(entries), origin: origin(mapping.mark?.line))
        case .alias:
            throw ScenarioError(file: file, keyPath: path, reason: "YAML aliases are not supported",
                                line: node.mark?.line)
        }
    }
}
