import Foundation

extension Scenario {
    /// Loads a scenario file strictly.
    ///
    /// ```swift
    /// let scenario = try Scenario.load(path: "Scenarios/rush-hour.yaml",
    ///                                  overrides: ["demand.scale=1.5", "dispatch.policy=nearest-idle"])
    /// ```
    ///
    /// - Parameters:
    ///   - path: the YAML file.
    ///   - overrides: `key.path=value` strings applied in order to the YAML tree before decoding;
    ///     the value is YAML (`fleet.scale=1.5`, `fleet.shifts[0].start="07:00"`,
    ///     `drivers.response_time={kind: fixed, value_s: 5}`). Any key of the schema can be set;
    ///     a key path outside the schema is an error.
    /// - Returns: the decoded and validated scenario, every default filled in.
    /// - Throws: `ScenarioError` naming the file, the key path and the reason (and the line when known).
    public static func load(path: String, overrides: [String] = []) throws(ScenarioError) -> Scenario {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ScenarioError(file: path, keyPath: "", reason: "cannot read file: \(error.localizedDescription)")
        }
        return try load(yaml: text, file: path, overrides: overrides)
    }

    /// Loads a scenario from YAML text; `file` labels every error.
    ///
    /// - Parameters:
    ///   - yaml: the scenario document.
    ///   - file: the name errors give for the document.
    ///   - overrides: as for `load(path:overrides:)`.
    /// - Returns: the decoded and validated scenario.
    /// - Throws: `ScenarioError`.
    public static func load(yaml: String, file: String, overrides: [String] = []) throws(ScenarioError) -> Scenario {
        var root = try ScenarioNode.parse(yaml: yaml, file: file)
        if case .mapping(let entries) = root.value, entries.contains(where: { $0.key == "database" || $0.key == "admin" }),
           !entries.contains(where: { $0.key == "city" }) {
            throw ScenarioError(file: file, keyPath: "", reason: "this is a service config (for citysim serve --config), "
                                + "not a scenario; its scenario is the file its `scenario:` key names")
        }
        for text in overrides {
            try ScenarioOverride(text, file: file).apply(to: &root, file: file)
        }
        return try read(ScenarioReader(file: file, path: "", node: root))
    }
}
