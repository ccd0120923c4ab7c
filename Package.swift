// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "citysim",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DispatchCore", targets: ["DispatchCore"]),
        .library(name: "EventEngine", targets: ["EventEngine"]),
        .library(name: "CitySim", targets: ["CitySim"]),
        .library(name: "TripPlanner", targets: ["TripPlanner"]),
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .executable(name: "citysim", targets: ["citysim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .systemLibrary(name: "CGSL", pkgConfig: "gsl", providers: [.apt(["libgsl-dev"])]),
        // The event engine: a clock and an event heap. No taxi words.
        .target(name: "EventEngine"),
        // The dispatch core: pure, no clock, no randomness, no I/O.
        .target(name: "DispatchCore"),
        // The city model and simulator that drives DispatchCore through its command API.
        .target(name: "CitySim", dependencies: [
            "DispatchCore", "EventEngine", "CGSL",
            .product(name: "Yams", package: "Yams"),
        ]),
        // The trip planner (Travlendar+): daily schedules and travel means; taxis through DispatchCore. Pure, no I/O.
        .target(name: "TripPlanner", dependencies: ["DispatchCore"]),
        .executableTarget(name: "citysim", dependencies: [
            "CitySim", "DispatchCore", "TripPlanner",
            .product(name: "Yams", package: "Yams"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Seeded generators and other fixtures shared by tests and benchmarks.
        .target(name: "TestSupport"),
        .testTarget(name: "DispatchCoreTests", dependencies: ["DispatchCore", "TestSupport"]),
        .testTarget(name: "EventEngineTests", dependencies: ["EventEngine", "TestSupport"]),
        .testTarget(name: "CitySimTests", dependencies: ["CitySim", "DispatchCore"]),
        .testTarget(name: "TripPlannerTests", dependencies: ["TripPlanner", "DispatchCore"]),
    ]
)
