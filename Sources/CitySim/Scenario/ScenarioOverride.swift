import Foundation

/// One `key.path=value` override, applied to the YAML tree before decoding.
///
/// The path is dotted keys with `[i]` for sequence elements (`fleet.shifts[0].taxis=300`); the value is
/// YAML (a scalar, or a flow collection such as `[1, 2]` or `{ kind: fixed, value_s: 0 }`). Missing
/// mappings along the path are created, so any key of the schema can be set; a key that is not in the
/// schema is then reported by the strict decoder as an unknown key, naming the override.
struct ScenarioOverride {
    enum Component: Equatable {
        case key(String)
        case index(Int)
    }

    let text: String
    let components: [Component]
    let value: ScenarioNode

    /// Keys of which at most one may be present in a mapping; setting one removes the others.
    private static let alternatives: [Set<String>] = [["side_km", "area_km2"]]

    init(_ text: String, file: String) throws(ScenarioError) {
        func fail(_ reason: String) -> ScenarioError {
            ScenarioError(file: file, keyPath: "", reason: "override '\(text)': \(reason)")
        }
        guard let equals = text.firstIndex(of: "=") else { throw fail("expected key.path=value") }
        let path = String(text[..<equals])
        let valueText = String(text[text.index(after: equals)...])
        guard !valueText.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail("missing value after '='") }
        var components: [Component] = []
        for segment in path.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(segment)
            let keyEnd = rest.firstIndex(of: "[") ?? rest.endIndex
            let key = rest[..<keyEnd].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw fail("malformed key path '\(path)'") }
            components.append(.key(key))
            rest = rest[keyEnd...]
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]"),
                      let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index >= 0
                else { throw fail("malformed index in key path '\(path)'") }
                components.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
        }
        self.text = text
        self.components = components
        do {
            self.value = try ScenarioNode.parse(yaml: valueText, file: file) { _ in .override(text) }
        } catch {
            throw fail("value is not valid YAML: \(error.reason)")
        }
    }

    /// The dotted path of the first `count` components.
    func pathText(_ count: Int) -> String {
        var text = ""
        for component in components.prefix(count) {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// Sets the value in `root`, creating missing mappings along the path.
    func apply(to root: inout ScenarioNode, file: String) throws(ScenarioError) {
        try set(&root, depth: 0, file: file)
    }

    private func set(_ node: inout ScenarioNode, depth: Int, file: String) throws(ScenarioError) {
        if depth == components.count {
            node = value
            return
        }
        let here = ScenarioReader(file: file, path: pathText(depth), node: node)
        switch components[depth] {
        case .key(let key):
            var entries: [ScenarioNode.Entry]
            switch node.value {
            case .mapping(let found): entries = found
            case .null: entries = []
            default:
                throw ScenarioError(file: file, keyPath: here.path,
                                    reason: "override '\(text)': cannot set key '\(key)' inside \(node.kindName)",
                                    line: node.line)
            }
            if depth == components.count - 1, let group = Self.alternatives.first(where: { $0.contains(key) }) {
                entries.removeAll { $0.key != key && group.contains($0.key) }
            }
            if let position = entries.firstIndex(where: { $0.key == key }) {
                try set(&entries[position].node, depth: depth + 1, file: file)
            } else {
                var child = ScenarioNode(value: .null, origin: .override(text))
                try set(&child, depth: depth + 1, file: file)
                entries.append(ScenarioNode.Entry(key: key, keyOrigin: .override(text), node: child))
            }
            node.value = .mapping(entries)
        case .index(let index):
            guard case .sequence(var elements) = node.value else {
                throw ScenarioError(file: file, keyPath: here.path,
                                    reason: "override '\(text)': expected a sequence to index, got \(node.kindName)",
                                    line: node.line)
            }
            guard index < elements.count else {
                throw ScenarioError(file: file, keyPath: here.path,
                                    reason: "override '\(text)': index \(index) out of range (\(elements.count) elements)",
                                    line: node.line)
            }
            try set(&elements[index], depth: depth + 1, file: file)
            node.value = .sequence(elements)
        }
    }
}
