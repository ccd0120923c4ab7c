// swift-tools-version:6.0
// The HTTP floor: server CPU per request for a route that does no work, on SwiftNIO alone and on Hummingbird
// with no middleware, beside citysim's own (README.md). Not part of the citysim package or its CI.
import PackageDescription

let package = Package(
    name: "http-floor",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        .target(name: "FloorServer", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        .executableTarget(name: "raw-nio", dependencies: [
            "FloorServer",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        .executableTarget(name: "raw-nio-post", dependencies: [
            "FloorServer",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOFoundationCompat", package: "swift-nio"),
        ]),
        .executableTarget(name: "bare-hb", dependencies: [
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
    ]
)
