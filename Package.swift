// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "almanac",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "almanac", targets: ["almanac"]),
        .executable(name: "almanac-fetch", targets: ["almanac-fetch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // libedit (Debian: libedit-dev; scripts/install-deps installs it). Its header and library
        // are in the compiler's default folders. Not through pkg-config: its -L for the system's
        // library folder would come before the release build's folder of static archives
        // (scripts/static-libs), and the shared libedit would be loaded at every start.
        .systemLibrary(name: "CLibEdit"),
        // The few C calls Swift cannot make itself: libedit's variadic functions,
        // the stdio globals, wcwidth, signal set-up (which wakes CGlibc's watchdog).
        .target(name: "CShims", dependencies: ["CLibEdit", "CGlibc"]),
        // glibc's GNU extensions (memmem, gettid).
        .target(name: "CGlibc"),
        // Datasets, loading and querying. No terminal code.
        .target(name: "AlmanacCore", dependencies: ["CGlibc"]),
        // The terminal layer: line editor, commands, rendering, progress. PostgreSQL tables are
        // attached through AlmanacPostgres, which opens libpq only when a database is first used.
        .target(name: "AlmanacShell", dependencies: ["AlmanacCore", "AlmanacPostgres", "CShims", "CLibEdit"]),
        // libpq's header. Not through pkg-config: its `-lpq` would load libpq and the twenty
        // libraries it needs at every start of almanac (3 ms, 400 page faults); CLibPQLoader
        // opens it when a database is first used. Debian: libpq-dev.
        .systemLibrary(name: "CLibPQ"),
        .target(name: "CLibPQLoader", dependencies: ["CLibPQ"], cSettings: [.headerSearchPath("../CLibPQ")]),
        // PostgreSQL tables as datasets: connections, catalog, SQL for every query, COPY.
        .target(name: "AlmanacPostgres", dependencies: ["AlmanacCore", "CLibPQ", "CLibPQLoader"]),
        // libcurl, found through pkg-config (Debian: libcurl4-openssl-dev), and one GET on it
        // that hands the body on as it arrives.
        .systemLibrary(name: "CLibCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CFetch", dependencies: ["CLibCurl"]),
        // HTTP, kept out of the shell's own binary (libcurl's libraries cost its start-up): the
        // almanac-fetch helper runs it.
        .target(name: "AlmanacNetwork", dependencies: ["AlmanacCore", "CFetch"]),
        .executableTarget(name: "almanac-fetch", dependencies: ["AlmanacCore", "AlmanacNetwork", "CGlibc"]),
        .executableTarget(
            name: "almanac",
            dependencies: [
                "AlmanacShell",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "almanac-bench", dependencies: ["AlmanacCore"]),
        .testTarget(name: "AlmanacCoreTests", dependencies: ["AlmanacCore", "AlmanacNetwork", "almanac-fetch"]),
        .testTarget(name: "AlmanacShellTests", dependencies: ["AlmanacShell", "AlmanacCore"]),
        // Test-only C helper: spawns a process on a pseudo-terminal; probes CGlibc's watchdog.
        .target(name: "CPTY", dependencies: ["CGlibc"], path: "Tests/CPTY"),
        // Test-only: the throwaway PostgreSQL cluster every database test shares.
        .target(name: "PostgresCluster", dependencies: ["AlmanacPostgres"], path: "Tests/PostgresCluster"),
        .testTarget(name: "AlmanacPostgresTests", dependencies: ["AlmanacPostgres", "AlmanacCore", "PostgresCluster"]),
        .testTarget(name: "EndToEndTests", dependencies: ["CPTY", "PostgresCluster", "almanac", "almanac-fetch"]),
    ]
)
