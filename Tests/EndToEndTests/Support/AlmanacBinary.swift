import Foundation

/// Where the `almanac` executable under test is.
///
/// `swift test` builds it into the same products folder as the test bundle, so it is looked
/// for beside the running test process; `ALMANAC_BIN` overrides that (a path to the binary).
enum AlmanacBinary {
    static let path: String = locate()

    private static func locate() -> String {
        let environment = ProcessInfo.processInfo.environment
        if let override = environment["ALMANAC_BIN"], !override.isEmpty { return override }
        for folder in candidateFolders() {
            let candidate = folder.appendingPathComponent("almanac").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        // Reported by the first spawn that uses it: "cannot start …/almanac".
        return (candidateFolders().first ?? URL(fileURLWithPath: ".")).appendingPathComponent("almanac").path
    }

    private static func candidateFolders() -> [URL] {
        var folders: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        let bundle = Bundle.main.bundleURL
        folders.append(bundle)
        folders.append(bundle.deletingLastPathComponent())
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        // macOS: …/debug/almanacPackageTests.xctest/Contents/MacOS/almanacPackageTests
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return folders
    }
}

/// The package's root folder (the one with Package.swift), found from this file's path.
enum PackageRoot {
    static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/EndToEndTests/Support/AlmanacBinary.swift
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
}
