// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "almanac",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "almanac", targets: ["almanac"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // libedit, found through pkg-config; Debian ships it as libedit-dev.
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // The few C calls Swift cannot make itself: libedit's variadic functions,
        // the stdio globals, wcwidth, signal set-up.
        .target(name: "CShims", dependencies: ["CLibEdit"]),
        // glibc's memmem, for searching byte buffers.
        .target(name: "CBytes"),
        // Datasets, loading and querying. No terminal code.
        .target(name: "AlmanacCore", dependencies: ["CBytes"]),
        // The terminal layer: line editor, commands, rendering, progress.
        .target(name: "AlmanacShell", dependencies: ["AlmanacCore", "CShims", "CLibEdit"]),
        .executableTarget(
            name: "almanac",
            dependencies: [
                "AlmanacShell",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "AlmanacCoreTests", dependencies: ["AlmanacCore"]),
        .testTarget(name: "AlmanacShellTests", dependencies: ["AlmanacShell", "AlmanacCore"]),
        // Test-only C helper: spawns a process on a pseudo-terminal.
        .target(name: "CPTY", path: "Tests/CPTY"),
        .testTarget(name: "EndToEndTests", dependencies: ["CPTY", "almanac"]),
    ]
)
