import Foundation
import Testing
@testable import AlmanacCore

/// `JSONStreamCheck` stops reading a pipe or device at the first byte that cannot be JSON.
/// Its promise: it never stops a text the parser accepts, and where it stops, the parser
/// given what was read (up to `excerptBytes` past the stop) reports the very error it reports for
/// the whole text. Tried on hand-written texts and thousands of damaged ones, fed in chunks
/// of every size from 1 byte.
@Suite struct JSONStreamCheckTests {
    /// The parser's verdict on a whole text, as the loader parses a file (NDJSON included).
    static func verdict(_ bytes: [UInt8], path: String = "t.json") -> String {
        bytes.withUnsafeBufferPointer { buffer in
            var builder = JSONDocumentBuilder(expectedBytes: buffer.count)
            do throws(LoadFailure) {
                try DatasetLoader.parseFile(buffer, name: "t", path: path, into: &builder, progress: { _ in })
                return "ok"
            } catch {
                return error.description
            }
        }
    }

    /// Where the check stops, feeding `text` in chunks of `chunk` bytes.
    static func stop(_ text: [UInt8], chunk: Int) -> JSONStreamCheck.Failure? {
        var check = JSONStreamCheck()
        var offset = 0
        while offset < text.count {
            let end = min(text.count, offset + chunk)
            if let failure = text.withUnsafeBufferPointer({ check.feed(UnsafeBufferPointer(rebasing: $0[offset..<end])) }) { return failure }
            offset = end
        }
        return nil
    }

    /// Checks the promise for one text; nil when kept, otherwise what broke it.
    static func broken(_ text: [UInt8], path: String = "t.json") -> String? {
        let whole = verdict(text, path: path)
        let stops = [1, 2, 3, 7, 64, 1 << 16].map { stop(text, chunk: $0) }
        guard stops.allSatisfy({ $0 == stops[0] }) else { return "the stop depends on the chunk size: \(stops)" }
        switch stops[0] {
        case nil:
            return nil
        case let .invalid(offset)?:
            if whole == "ok" { return "stopped at \(offset) a text the parser accepts" }
            let read = verdict(Array(text.prefix(offset + JSONStreamCheck.excerptBytes)), path: path)
            return read == whole ? nil : "stopped at \(offset): the parser says '\(read)' there, '\(whole)' for the whole text"
        case .stringTooLong?:
            return whole.contains("MiB or more") ? nil : "a string too long, but the parser says '\(whole)'"
        }
    }

    static let samples: [String] = [
        #"[{"name": "Åland", "n": -12.5e+3, "ok": true, "no": false, "none": null, "list": [1, [2, {}], []]}]"#,
        #"{"a": "\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00", "b": 0, "c": -0.0, "d": 1E9}"#,
        "\u{FEFF}[1, 2]", "  \n\t\r 42 \n", "\"just a string\"", "{\"a\":1}\n{\"a\":2}\n", "[]", "{}", "0", "-1e-7",
    ]

    static let damaged: [String] = [
        "", "\0", "\0\0\0", "x", "[1, 2,]", "[1 2]", "{\"a\" 1}", "{\"a\": 1,}", "{1: 2}", "[01]", "[-]", "[1.]", "[1e]",
        "[1e+]", "[.5]", "[tru]", "[truex]", "[nul]", "[\"a\nb\"]", "[\"\\x\"]", "[\"\\u12G4\"]", "[1]]", "{}}", "[}", "{]",
        "\u{FEFF}\u{FEFF}[]", "\u{EF}x", "[1] x", "{\"a\":1}\n[2]", "{\"a\":1}\n{\"a\":2} 3\n", "[\"\\uD800\"]", "[\"\u{FF}\"]",
        "Name:\talmanac\nState:\tR\n", "[\"unterminated", "[1, 2", "[" + String(repeating: "[", count: 600),
    ]

    @Test("hand-written texts, valid and invalid: the check stops only where the parser fails, with the parser's error")
    func handWritten() {
        for text in Self.samples {
            #expect(Self.verdict(Array(text.utf8)) == "ok", "\(text)")
            #expect(Self.stop(Array(text.utf8), chunk: 1) == nil, "\(text)")
        }
        for text in Self.samples + Self.damaged {
            #expect(Self.broken(Array(text.utf8)) == nil, "\(text.debugDescription)")
            #expect(Self.broken(Array(text.utf8), path: "t.ndjson") == nil, "\(text.debugDescription) as NDJSON")
        }
        // /dev/zero's first byte, a /proc file's first letter, an early stop.
        #expect(Self.stop([0, 0, 0], chunk: 3) == .invalid(offset: 0))
        #expect(Self.stop(Array("Name:\talmanac".utf8), chunk: 64) == .invalid(offset: 0))
        #expect(Self.stop(Array("[1, 2, x, 3, 4]".utf8), chunk: 64) == .invalid(offset: 7))
    }

    @Test("damaged copies of the bundled files and of the samples: never a stop the parser disagrees with")
    func damagedTexts() throws {
        var generator = SplitMix64(seed: UInt64(ProcessInfo.processInfo.environment["ALMANAC_FUZZ_SEED"].flatMap(UInt64.init) ?? 20261123))
        let planets = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RealData.directory + "/planets.json")))
        let texts = [planets] + Self.samples.map { Array($0.utf8) }
        let nasty: [UInt8] = Array("{}[],:\"\\-+.eE0123456789tfnu \n\0".utf8) + [0xFF, 0xC3]
        var failures: [String] = []
        var stopped = 0
        for round in 0..<3000 {
            var text = texts[round % texts.count]
            // Damage near the start of the large file too, so most texts stop early.
            let reach = min(text.count, round % 3 == 0 ? text.count : 400)
            for _ in 0...Int.random(in: 0...2, using: &generator) where !text.isEmpty {
                let at = Int.random(in: 0..<min(text.count, reach), using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: text[at] = nasty.randomElement(using: &generator)!
                case 1: text.remove(at: at)
                default: text.insert(nasty.randomElement(using: &generator)!, at: at)
                }
            }
            if Self.stop(text, chunk: 4096) != nil { stopped += 1 }
            if let broken = Self.broken(text) { failures.append("\(broken): \(String(decoding: text.prefix(300), as: UTF8.self).debugDescription)") }
        }
        #expect(failures.isEmpty, "\(failures.count) of 3000, first: \(failures.prefix(3))")
        // Most damage is caught as it streams (what is not: UTF-8, surrogates, a deleted quote
        // that turns text into a string the parser alone finds wrong).
        #expect(stopped > 1500, "only \(stopped) of 3000 damaged texts stopped early")
    }

    @Test("a string that can only be longer than the parser's limit stops the stream")
    func endlessString() {
        var check = JSONStreamCheck()
        let opening = Array("[\"".utf8)
        let letters = [UInt8](repeating: UInt8(ascii: "y"), count: 1 << 20)
        var failure = opening.withUnsafeBufferPointer { check.feed($0) }
        var fed = 0
        while failure == nil, fed < 64 {
            failure = letters.withUnsafeBufferPointer { check.feed($0) }
            fed += 1
        }
        #expect(failure == .stringTooLong(opening: 1))
        #expect(fed <= 6 * 4 + 1, "\(fed) MiB read")
    }
}
