// swift-tools-version: 6.1
// Benchmarks live in their own package so that the root package (and its CI)
// never builds ordo-one/benchmark, its malloc interposer or the release-mode suites.
import PackageDescription

let benchmarkPlugin: [Target.PluginUsage] = [.plugin(name: "BenchmarkPlugin", package: "benchmark")]

let package = Package(
    name: "citysim-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "citysim", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Fixtures shared by the ordo-one suites and the gate: the fleet, the hold model, scenario paths.
        .target(
            name: "BenchFixtures",
            dependencies: [
                .product(name: "TestSupport", package: "citysim"),
                .product(name: "DispatchCore", package: "citysim"),
                .product(name: "EventEngine", package: "citysim"),
            ],
            path: "Benchmarks/BenchFixtures"
        ),
        // The regression gate's fixed workloads, counted under callgrind by .ci/bench (no ordo-one:
        // `swift build -c release --product BenchGate` builds only the citysim modules it calls).
        .executableTarget(
            name: "BenchGate",
            dependencies: [
                "BenchFixtures",
                .product(name: "DispatchCore", package: "citysim"),
                .product(name: "CitySim", package: "citysim"),
            ],
            path: "Benchmarks/BenchGate"
        ),
        .executableTarget(
            name: "DispatchDecision",
            dependencies: [
                "BenchFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DispatchCore", package: "citysim"),
            ],
            path: "Benchmarks/DispatchDecision",
            plugins: benchmarkPlugin
        ),
        .executableTarget(
            // Not "EventEngine": that name is taken by the root package's module.
            name: "EventEngineBenchmarks",
            dependencies: [
                "BenchFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "EventEngine", package: "citysim"),
            ],
            path: "Benchmarks/EventEngineBenchmarks",
            plugins: benchmarkPlugin
        ),
        .executableTarget(
            name: "RoadRouting",
            dependencies: [
                "BenchFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "DispatchCore", package: "citysim"),
                .product(name: "RoadNetwork", package: "citysim"),
                .product(name: "TestSupport", package: "citysim"),
            ],
            path: "Benchmarks/RoadRouting",
            plugins: benchmarkPlugin
        ),
        .executableTarget(
            name: "Simulation",
            dependencies: [
                "BenchFixtures",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CitySim", package: "citysim"),
            ],
            path: "Benchmarks/Simulation",
            plugins: benchmarkPlugin
        ),
    ]
)
