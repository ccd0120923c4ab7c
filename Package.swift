// swift-tools-version: 6.1
import PackageDescription

/// Release builds of citysim's own run-path modules reach a concrete generic type's metadata through a direct accessor,
/// not by demangling its name at run time. Demangling `[RideRecord]` or a scenario part's `Codable` plumbing asks the
/// runtime for each protocol conformance its generic arguments need, and the first ask for a (type, protocol) pair
/// scans all 14,500 conformance records in the binary: ~120,000 instructions each, ~550 of them per run, 6.6 % of the
/// grid city's instructions (session 33). With direct accessors callgrind counts the grid city's whole run at 1,019.4 →
/// 992.7 M instructions (−2.6 %; the loop's own 622.9 → 622.8 M) and perf 39 % fewer samples in those lookups: 1–3 ms
/// less before and after the loop (`Results/bench/speed.md`, "Twenty-first pass"). What remains is ArgumentParser's,
/// `JSONEncoder`'s and `Mirror`'s, compiled without the flag. The flag is the frontend's and only changes how metadata
/// is found.
let directMetadataAccess = ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]

/// Release builds of the simulation's hot-loop modules skip Swift's dynamic exclusivity checks: on
/// city-scale they were 12 % of the run's self time (`swift_beginAccess`, `AccessSet::insert`, `swift_endAccess`
/// and their TLS lookups), for class properties the compiler cannot prove unshared. Debug builds, and so
/// every test, keep the checks; see Results/bench/README.md for the measurement.
let hotLoopSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"] + directMetadataAccess, .when(configuration: .release))]

/// `citysim` links the Swift runtime and Foundation statically on Linux. Loading them as shared libraries
/// (Foundation, ICU, FoundationXML and a dozen more, with their symbol relocations) took 15 ms of every
/// run's start, and lazy symbol binding more during the run: the yardstick's grid city ran in 0.125 s with
/// shared libraries and 0.113 s linked statically (median of 12 alternating pairs, 11 of 12 lower;
/// Results/bench/speed.md, "Fifteenth pass"). Sweeps of many short runs gain the most. The static Foundation's own
/// libraries are listed by hand: the dependencies' modules are compiled against the shared Foundation, whose
/// autolink entries do not name them (a toolchain that splits Foundation differently fails here at link time).
/// `--no-export-dynamic` undoes the Swift driver's `--export-dynamic`: it put 68,000 symbols of citysim's own modules
/// in the dynamic symbol table, which the runtime's start-up `dladdr` (the backtracer's path lookup) searched one by
/// one: `citysim --version` took 8.4 ms with them and 6.6 ms without (medians of 40). Nothing looks up citysim's own
/// symbols at run time; `dlsym` of glibc's (`ProcessHeap`) is unchanged. (`-no-pie` would save 1.8 ms more, the
/// image's 170,000 relative relocations, but would also give `citysim serve` a fixed address layout: not taken.)
/// `-use-ld=lld` with `-z pack-relative-relocs` keeps the image position-independent but stores those relocations as
/// DT_RELR bitmaps (33 KB instead of gold's 4 MB `.rela.dyn`, which the loader read page by page at every start):
/// `citysim --version` 7.09 → 6.64 ms (medians of 100, alternating), and the release link takes ~10 s. It needs
/// glibc 2.36 (Debian 12) and the toolchain's own `ld.lld`.
let staticRuntime: [LinkerSetting] = [.unsafeFlags(["-static-stdlib", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_CFXMLInterface", "-lxml2", "-l_FoundationCollections", "-Xlinker", "--no-export-dynamic", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"], .when(platforms: [.linux]))]

let package = Package(
    name: "citysim",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DispatchCore", targets: ["DispatchCore"]),
        .library(name: "EventEngine", targets: ["EventEngine"]),
        .library(name: "CitySim", targets: ["CitySim"]),
        .library(name: "TripPlanner", targets: ["TripPlanner"]),
        .library(name: "RoadNetwork", targets: ["RoadNetwork"]),
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .library(name: "DispatchService", targets: ["DispatchService"]),
        .executable(name: "citysim", targets: ["citysim"]),
        .executable(name: "citysim-service", targets: ["citysim-service"]),
        .executable(name: "roadnet", targets: ["roadnet"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Observability and operations of the service (the first four also come with Hummingbird).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // The runtime of the types swift-openapi-generator made from the service's OpenAPI document
        // (`ServiceAPITypes`; the generated code is committed, so builds need no generator plugin).
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
    ],
    targets: [
        .systemLibrary(name: "CGSL", pkgConfig: "gsl", providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]),
        // GLPK's MIP solver for plan-fleet's exact shift plan (Debian ships no pkg-config file for it).
        .systemLibrary(name: "CGLPK", providers: [.apt(["libglpk-dev"]), .brew(["glpk"])]),
        // A cache prefetch hint for Swift code (one inline C function).
        .target(name: "CCacheHint"),
        // The same hint for an array's element, and `RecordTable` (records by slot with no copy-on-write test at
        // each write), for the simulator's and the core's records (Swift, inlined).
        .target(name: "CacheHint", dependencies: ["CCacheHint"], swiftSettings: hotLoopSettings),
        // The event engine: a clock and an event heap. No taxi words.
        .target(name: "EventEngine", dependencies: ["CCacheHint"], swiftSettings: hotLoopSettings),
        // The dispatch core: pure, no clock, no randomness, no I/O (CacheHint: cache hints, which change nothing).
        .target(name: "DispatchCore", dependencies: ["CacheHint"], swiftSettings: hotLoopSettings),
        // The city model and simulator that drives DispatchCore through its command API.
        .target(name: "CitySim", dependencies: [
            "DispatchCore", "EventEngine", "CGSL", "CGLPK", "CCacheHint", "CacheHint", "TripPlanner", "TransitFeeds", "RoadNetwork",
            .product(name: "Yams", package: "Yams"),
        ], resources: [.copy("Trace/viewer.html")], swiftSettings: hotLoopSettings),
        // The trip planner (Travlendar+): daily schedules and travel means; taxis through DispatchCore. Pure, no I/O.
        .target(name: "TripPlanner", dependencies: ["DispatchCore"]),
        // GTFS feeds from disk, a folder or a .zip archive (zlib through compress-nio): the one loader of
        // run, plan-day and serve. TripPlanner parses; this module only reads.
        .target(name: "TransitFeeds", dependencies: [
            "TripPlanner",
            .product(name: "CompressNIO", package: "compress-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // Road networks: OpenStreetMap reader, drivable graph, contraction hierarchies, snapping,
        // travel time by hour. Pure (no clock, no randomness); DispatchCore does not import it.
        .target(name: "RoadNetwork", dependencies: [
            "DispatchCore",
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            .product(name: "CompressNIO", package: "compress-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // The HTTP service: accounts, storage and timers around one DispatchCore.
        // The only module that imports Hummingbird, GRDB and PostgresNIO.
        .target(name: "DispatchService", dependencies: [
            "CitySim", "DispatchCore", "TripPlanner", "TransitFeeds",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "Yams", package: "Yams"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            // The OTLP/HTTP span exporter's client (already built for ServiceLoad; no new package).
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            // Its gzip bodies (OTEL_EXPORTER_OTLP_COMPRESSION=gzip): zlib, as TransitFeeds and RoadNetwork use it.
            .product(name: "CompressNIO", package: "compress-nio"),
        ], resources: [.copy("Resources/openapi.json"), .copy("Resources/web")]),
        // The service's request and response bodies as its OpenAPI document declares them, generated by
        // swift-openapi-generator (Scripts/generate-api-types.sh); the load generator reads and writes these.
        .target(name: "ServiceAPITypes", dependencies: [
            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
        ]),
        // The load generator: plays a scenario (or a closed-loop burst) against a running
        // service over HTTP, measures latency per endpoint and checks the end state.
        .target(name: "ServiceLoad", dependencies: [
            "CitySim", "DispatchCore", "ServiceAPITypes",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Histogram", package: "hdrhistogram-swift"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // The simulator's command line: run, sweep, merge, plan-fleet, plan-day, bench, fit-demand. It links no
        // service module: `serve`, `load` and `view` hand their arguments to `citysim-service` (ServiceForwarding.swift).
        .executableTarget(name: "citysim", dependencies: [
            "CitySim", "DispatchCore", "TripPlanner", "CommandLineSupport",
            .product(name: "Yams", package: "Yams"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: [.unsafeFlags(directMetadataAccess, .when(configuration: .release))],
            linkerSettings: staticRuntime),
        // The commands that need the network stack: serve (the HTTP service), load (its load generator), view.
        .executableTarget(name: "citysim-service", dependencies: [
            "CitySim", "DispatchCore", "DispatchService", "ServiceLoad", "CommandLineSupport",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/citysim-service", linkerSettings: staticRuntime),
        // What both executables share: exit statuses, error reporting, the version and its build stamp.
        .target(name: "CommandLineSupport", dependencies: [
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], plugins: ["BuildStamp"]),
        // Writes the git commit the tool is built from (`citysim --version`, summaries' `commit`).
        .plugin(name: "BuildStamp", capability: .buildTool()),
        // Inspect an OpenStreetMap extract as a drivable network; export it for the networkx check.
        .executableTarget(name: "roadnet", dependencies: [
            "RoadNetwork", "DispatchCore", "TestSupport",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Append throughput of the command log on each storage engine (prints, asserts nothing).
        .executableTarget(name: "store-bench", dependencies: ["CitySim", "DispatchCore", "DispatchService"]),
        // Seeded generators and other fixtures shared by tests and benchmarks.
        .target(name: "TestSupport"),
        .testTarget(name: "DispatchCoreTests", dependencies: ["DispatchCore", "TestSupport"]),
        .testTarget(name: "EventEngineTests", dependencies: ["EventEngine", "TestSupport"]),
        .testTarget(name: "CitySimTests", dependencies: ["CitySim", "DispatchCore", "TripPlanner", "RoadNetwork", "TestSupport"]),
        .testTarget(name: "RoadNetworkTests", dependencies: ["RoadNetwork", "DispatchCore", "TestSupport"]),
        .testTarget(name: "TripPlannerTests", dependencies: ["TripPlanner", "DispatchCore"]),
        .testTarget(name: "TransitFeedsTests", dependencies: ["TransitFeeds", "TripPlanner", "DispatchCore"],
                    resources: [.copy("Feeds")]),
        .testTarget(name: "DispatchServiceTests", dependencies: [
            "DispatchService", "DispatchCore", "CitySim", "TripPlanner",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "CompressNIO", package: "compress-nio"),
        ]),
        // Runs the built `citysim` binary: exit statuses, standard error, --version, progress output.
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
        .testTarget(name: "ServiceLoadTests", dependencies: [
            "ServiceLoad", "DispatchService", "CitySim", "ServiceAPITypes",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        ]),
    ]
)
