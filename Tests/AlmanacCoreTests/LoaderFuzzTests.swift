import Foundation
import Testing
@testable import AlmanacCore

/// A small deterministic generator, so a failure names a seed that reproduces it.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// No data file crashes the loader: real files, mutated, each give a clear error or a lenient
/// load with warnings, and a failed load leaves the previous contents answering.
@Suite(.serialized) struct LoaderFuzzTests {
    /// `ALMANAC_FUZZ_FILES` asks for more mutations per file; `ALMANAC_FUZZ_SEED` for another seed.
    static let mutationsPerFile = Int(ProcessInfo.processInfo.environment["ALMANAC_FUZZ_FILES"] ?? "") ?? 150
    static let seed = UInt64(ProcessInfo.processInfo.environment["ALMANAC_FUZZ_SEED"] ?? "") ?? 20261121

    enum Mutation: CaseIterable {
        case truncate, flipBits, deleteRange, duplicateRange, insertFragment, replaceValue
    }

    static let fragments: [String] = [
        "{", "}", "[", "]", ",", ":", "\"", "null", "true", "-", "1e999999", "-0.0e-0",
        String(repeating: "9", count: 400), "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"\\x\"",
        "[[[[[[[[[[", "{\"a\":", "\u{0}", "\u{1B}[31m", "\"\u{202E}\"", "\u{FEFF}", "\"\\uD83D\\uDE00\"",
    ]

    static func mutate(_ original: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = original
        let position = Int.random(in: 0..<max(1, bytes.count), using: &random)
        switch Mutation.allCases.randomElement(using: &random)! {
        case .truncate:
            bytes.removeSubrange(position...)
        case .flipBits:
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            }
        case .deleteRange:
            let end = min(bytes.count, position + Int.random(in: 1...200, using: &random))
            bytes.removeSubrange(position..<end)
        case .duplicateRange:
            let end = min(bytes.count, position + Int.random(in: 1...500, using: &random))
            bytes.insert(contentsOf: bytes[position..<end], at: end)
        case .insertFragment:
            bytes.insert(contentsOf: Array(fragments.randomElement(using: &random)!.utf8), at: position)
        case .replaceValue:
            // A value of another type where a string or number was.
            if let quote = bytes[position...].firstIndex(of: UInt8(ascii: ":")) {
                let replacement = ["{}", "[]", "null", "12345", "\"text\"", "true", "[1,[2]]"].randomElement(using: &random)!
                var end = quote + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: ","), bytes[end] != UInt8(ascii: "}") { end += 1 }
                bytes.replaceSubrange((quote + 1)..<end, with: Array(replacement.utf8))
            }
        }
        return bytes
    }

    @Test(arguments: [("countries", "countries.json"), ("species", "species.json"), ("stations", "stations.json")])
    func mutatedFilesNeverCrashAndNeverLoseTheOldData(name: String, file: String) throws {
        let scratch = Scratch()
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: RealData.directory + "/" + file)))
        let catalog = Catalog()
        let model = DefaultDatasets.model(for: name)
        let good = try catalog.loadAndWait(LoadRequest(name: name, source: .file(path: RealData.directory + "/" + file), model: model))
        var random = SplitMix64(seed: Self.seed ^ UInt64(file.utf8.count))
        let runs = name == "stations" ? max(1, Self.mutationsPerFile / 3) : Self.mutationsPerFile
        var failures = 0
        var current = good.count
        for run in 0..<runs {
            let path = scratch.file("mutant-\(run).json", bytes: Self.mutate(original, &random))
            let load = catalog.load(LoadRequest(name: name, source: .file(path: path), model: model))
            load.wait()
            switch load.result {
            case .failure(let failure)?:
                failures += 1
                #expect(failure.description.contains("mutant-\(run).json"), "seed \(Self.seed) run \(run): \(failure)")
                #expect(catalog.dataset(name)?.count == current, "seed \(Self.seed) run \(run): old contents lost")
            case .success(let dataset)?:
                // A lenient load replaced the contents; a later failure must keep these.
                current = dataset.count
                #expect(catalog.dataset(name)?.count == current)
            case nil:
                Issue.record("load did not finish")
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        #expect(failures > 0)
    }

    @Test func hostileShapes() throws {
        let scratch = Scratch()
        let catalog = Catalog()
        let good = try catalog.loadAndWait(LoadRequest(name: "countries", source: .file(path: RealData.directory + "/countries.json"), model: CountryModel.self))
        let hostile: [(String, String)] = [
            ("deep", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
            ("deep-objects", String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000)),
            ("huge-number", "[{\"alpha3Code\": \"AAA\", \"population\": " + String(repeating: "9", count: 100_000) + "}]"),
            ("infinite", "[{\"alpha3Code\": \"AAA\", \"area\": 1e999999}]"),
            ("nul", "[{\"alpha3Code\": \"A\\u0000A\", \"name\": \"x\\u0000y\"}]"),
            ("surrogate", "[{\"alpha3Code\": \"\\ud800\"}]"),
            ("controls", "[{\"alpha3Code\": \"ESC\", \"name\": \"\\u001b[2J\\u009b\\u202e\"}]"),
            ("bom", "\u{FEFF}[{\"alpha3Code\": \"BOM\"}]"),
            ("only-whitespace", "   \n\t  "),
            ("number-root", "3.14"),
        ]
        var current = good.count
        for (name, text) in hostile {
            let path = scratch.file("\(name).json", text)
            let load = catalog.load(LoadRequest(name: "countries", source: .file(path: path), model: CountryModel.self))
            load.wait()
            switch load.result {
            case .failure?: #expect(catalog.dataset("countries")?.count == current, "\(name)")
            case let .success(dataset)?: current = dataset.count
            case nil: Issue.record("load did not finish")
            }
        }
        // Limits are named in the errors.
        let big = String(repeating: "x", count: 50 << 20)
        let path = scratch.file("big-string.json", "[{\"alpha3Code\": \"BIG\", \"name\": \"\(big)\"}]")
        let load = catalog.load(LoadRequest(name: "countries", source: .file(path: path), model: CountryModel.self))
        load.wait()
        guard case let .failure(failure)? = load.result else { Issue.record("a 50 MB string should exceed the limit"); return }
        #expect(failure.description.contains("a string of 4 MiB or more (the limit)"))
        #expect(catalog.dataset("countries")?.count == current)
    }
}
