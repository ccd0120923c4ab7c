import Foundation
import PackagePlugin

/// Stamps the `citysim` tool with the git commit it is built from: before every build it writes
/// `BuildStamp.swift` (`enum BuildStamp { static let commit = "…" }`) into the plugin's work folder.
///
/// Invariant: the commit is the package checkout's `HEAD` at build time (`-dirty` when tracked files
/// differ from it), or `unknown` outside a git checkout or without git; the file is rewritten only when
/// the stamp changes, so an unchanged checkout recompiles nothing.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        let file = folder.appendingPathComponent("BuildStamp.swift")
        // A prebuild command runs before every build; /bin/sh and git are the machine's, not built here.
        let script = #"""
            dir="$1"; out="$2"; mkdir -p "$(dirname "$out")"
            commit=$(git -C "$dir" --no-optional-locks rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
            if [ "$commit" != unknown ] && ! git -C "$dir" --no-optional-locks diff --quiet HEAD -- 2>/dev/null; then
              commit="$commit-dirty"
            fi
            text="/// Generated before every build by the BuildStamp plugin: the commit this binary was built from.
            enum BuildStamp { static let commit = \"$commit\" }"
            if [ ! -f "$out" ] || [ "$(cat "$out")" != "$text" ]; then printf '%s\n' "$text" > "$out"; fi
            """#
        return [.prebuildCommand(
            displayName: "Stamping \(target.name) with the git commit",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script, "stamp", context.package.directoryURL.path, file.path],
            outputFilesDirectory: folder)]
    }
}
