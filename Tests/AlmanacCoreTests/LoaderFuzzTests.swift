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

    static let csvFragments: [String] = [
        "\"", "\"\"", ",", ";", "\t", "|", "\n", "\r", "\r\n", "\u{FEFF}", "\u{0}", "\\", "\\n", "NULL", "1,5", "+7", "007",
        "true", "TRUE", "1e999", String(repeating: "9", count: 400), "\"a\nb\"", "é", "😀", "\u{1B}[2J",
    ]

    /// A CSV file of quoted text, numbers, booleans and empty cells, made up here.
    static func sampleCSV(rows: Int, delimiter: String) -> String {
        var random = SplitMix64(seed: 7)
        var text = ["id", "name", "note", "score", "flag", "when"].joined(separator: delimiter) + "\n"
        for row in 0..<rows {
            // TSV has no quoting: its line breaks and tabs are escaped.
            let notes = delimiter == "\t" ? ["plain", "with \"quotes\"", "two\\nlines", "a\\tb", ""]
                : ["plain", "\"with \"\"quotes\"\"\"", "\"two\nlines\"", "\"a\(delimiter)b\"", ""]
            let note = notes.randomElement(using: &random)!
            let cells = ["\(row)", "name \(row) ü", note, ["1.5", "2", "", "NA"].randomElement(using: &random)!,
                         ["true", "false"].randomElement(using: &random)!, "2026-11-\(10 + row % 18)"]
            text += cells.joined(separator: delimiter) + (row % 3 == 0 ? "\r\n" : "\n")
        }
        return text
    }

    static func mutateCSV(_ original: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = original
        let position = Int.random(in: 0..<max(1, bytes.count), using: &random)
        switch Int.random(in: 0..<5, using: &random) {
        case 0: bytes.removeSubrange(position...)
        case 1:
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            }
        case 2: bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...80, using: &random)))
        case 3:
            let end = min(bytes.count, position + Int.random(in: 1...300, using: &random))
            bytes.insert(contentsOf: bytes[position..<end], at: end)
        default: bytes.insert(contentsOf: Array(csvFragments.randomElement(using: &random)!.utf8), at: position)
        }
        return bytes
    }

    /// Malformed CSV and TSV: each mutant loads (leniently typed) or fails with the file's
    /// name, a line and a column; a failure keeps the previous contents.
    @Test(arguments: [("data.csv", ","), ("data.csv", ";"), ("data.tsv", "\t")])
    func mutatedCSVNeverCrashesAndSaysWhere(file: String, delimiter: String) throws {
        let scratch = Scratch()
        let original = Array(Self.sampleCSV(rows: 400, delimiter: delimiter).utf8)
        let catalog = Catalog()
        let good = try catalog.loadAndWait(LoadRequest(name: "things", source: .file(path: scratch.file(file, bytes: original)), model: GenericModel.self))
        #expect(good.count == 400)
        var random = SplitMix64(seed: Self.seed ^ UInt64(delimiter.utf8.first ?? 0))
        var failures = 0
        var current = good.count
        for run in 0..<Self.mutationsPerFile {
            let name = "mutant-\(run)-" + file
            let path = scratch.file(name, bytes: Self.mutateCSV(original, &random))
            let load = catalog.load(LoadRequest(name: "things", source: .file(path: path), model: GenericModel.self))
            load.wait()
            switch load.result {
            case .failure(let failure)?:
                failures += 1
                let text = failure.description
                #expect(text.hasPrefix(path + ": line ") && text.contains(", column "), "seed \(Self.seed) run \(run): \(text)")
                #expect(catalog.dataset("things")?.count == current, "seed \(Self.seed) run \(run): old contents lost")
            case .success(let dataset)?:
                current = dataset.count
                // Every record is an object of the header's columns, whatever was typed.
                #expect(dataset.records.allSatisfy { dataset.document.kind(at: $0) == .object })
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
