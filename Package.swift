// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "vand",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "vand", targets: ["vand"]),
        .executable(name: "vanadmin", targets: ["vanadmin"]),
        .library(name: "VanDomain", targets: ["VanDomain"]),
        .library(name: "VanScheduler", targets: ["VanScheduler"]),
        .library(name: "VanPostgres", targets: ["VanPostgres"]),
        .library(name: "VanServices", targets: ["VanServices"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        // Already in the graph through Hummingbird; named for the HTTP part types vand's connection guard handles.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
    ],
    targets: [
        .target(name: "VanDomain", swiftSettings: swiftSettings),
        .systemLibrary(
            name: "CPostgres",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "VanScheduler", dependencies: ["VanDomain"], swiftSettings: swiftSettings),
        .target(
            name: "VanPostgres",
            dependencies: [
                "CPostgres",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "VanServices",
            dependencies: [
                "VanDomain",
                "VanScheduler",
                "VanPostgres",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "vand",
            dependencies: [
                "VanDomain",
                "VanScheduler",
                "VanServices",
                "VanPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "vanadmin",
            dependencies: [
                "VanDomain",
                "VanScheduler",
                "VanServices",
                "VanPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "vand-bench",
            dependencies: [
                "VanDomain",
                "VanScheduler",
                "VanServices",
                "VanPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "VanDomainTests", dependencies: ["VanDomain", "VanTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "VanSchedulerTests", dependencies: ["VanScheduler", "VanDomain", "VanTestSupport"], exclude: ["Routing/Fixtures"],
            swiftSettings: swiftSettings),
        .target(
            name: "VanTestSupport",
            dependencies: ["VanDomain", "VanServices", "VanPostgres"],
            path: "Tests/VanTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VanPostgresTests",
            dependencies: ["VanPostgres", "VanTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "VanServicesTests",
            dependencies: [
                "VanServices",
                "VanPostgres",
                "VanTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "vanadminTests",
            dependencies: ["vanadmin", "VanTestSupport", "VanServices", "VanPostgres", "VanScheduler"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "vand-benchTests",
            dependencies: ["vand-bench", "VanTestSupport", "VanServices", "VanPostgres", "VanDomain", "VanScheduler"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "vandTests",
            dependencies: [
                "vand",
                "VanTestSupport",
                "VanServices",
                "VanPostgres",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
