// swift-tools-version:6.1
import Foundation
import PackageDescription

// scripts/test.sh sets FORGE_OPTIMIZED_TESTS: the tests run real books, audio and recordings through
// Forge's own signal processing, which an unoptimized build runs several times slower. Only this
// package's library and executable are optimized, and the tests' `DEBUG` hooks stay. A package
// that depends on Forge (for its plugin) builds it without the variable: no unsafe flags.
let optimized: [SwiftSetting] =
    ProcessInfo.processInfo.environment["FORGE_OPTIMIZED_TESTS"] == nil ? [] : [.unsafeFlags(["-O"])]

let package = Package(
    name: "Forge",
    // Linux (Debian 12 / Ubuntu) only: forge reads /proc, uses Linux's stat and flock semantics and
    // installs its C libraries with apt. No platforms are claimed that it is not built and tested on.
    products: [
        .executable(name: "forge", targets: ["ForgeCLI"]),
        .executable(name: "forge-fuzz", targets: ["ForgeFuzz"]),
        .plugin(name: "ForgePlugin", targets: ["ForgePlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CEspeakNG",
            pkgConfig: "espeak-ng",
            providers: [.apt(["libespeak-ng-dev"])]
        ),
        // Kernel interfaces (userfaultfd, PAGEMAP_SCAN) newer than Debian 12's headers; no library.
        .systemLibrary(name: "CLinuxMemory"),
        .systemLibrary(
            name: "CSndFile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        .systemLibrary(
            name: "CPocketSphinx",
            pkgConfig: "pocketsphinx",
            providers: [.apt(["libpocketsphinx-dev", "libsphinxbase-dev", "pocketsphinx-en-us"])]
        ),
        .systemLibrary(
            name: "CEbur128",
            pkgConfig: "libebur128",
            providers: [.apt(["libebur128-dev"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CCMark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .systemLibrary(
            name: "CLibZip",
            pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CSoxr",
            pkgConfig: "soxr",
            providers: [.apt(["libsoxr-dev"])]
        ),
        .target(
            name: "Forge",
            dependencies: [
                "CEspeakNG",
                "CLinuxMemory",
                "CEbur128",
                "CSndFile",
                "CPocketSphinx",
                "CSoxr",
                "CCurl",
                "CLibZip",
                "CLibXML2",
                "CCMark",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: optimized
        ),
        .executableTarget(
            name: "ForgeCLI",
            dependencies: [
                "Forge",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: optimized
        ),
        // Fuzzes Forge's readers of untrusted input; scripts/fuzz.sh builds it with libFuzzer.
        .executableTarget(
            name: "ForgeFuzz",
            dependencies: ["Forge"]
        ),
        .plugin(
            name: "ForgePlugin",
            capability: .command(
                intent: .custom(
                    verb: "forge", description: "Run forge (build, plan, status, …) on a recipe in this package"),
                permissions: [
                    .writeToPackageDirectory(
                        reason: "forge writes audio, timings and its manifest into the recipe's output directory")
                ]
            )
        ),
        .testTarget(
            name: "ForgeTests",
            dependencies: ["Forge", "ForgeCLI", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            // Read from the source tree by the tests (Fixtures.packageRoot), not bundled.
            exclude: ["Resources"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
