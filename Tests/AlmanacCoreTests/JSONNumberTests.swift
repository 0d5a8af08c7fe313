import Testing
@testable import AlmanacCore

/// The parser reads a number's value itself: Clinger's fast path, then Eisel–Lemire
/// (`DecimalToDouble`), strtod only where those cannot decide; digits eight at a time
/// (`EightDigits`). Every value must have the bits Swift's own `Double(String)` (strtod) gives,
/// and every invalid literal the error it had before.
@Suite struct JSONNumberTests {
    /// The parsed document's numbers, in order, with their literals.
    static func numbers(in text: String) throws(LoadFailure) -> [(literal: String, value: Double)] {
        try Array(text.utf8).withUnsafeBufferPointer { buffer throws(LoadFailure) in
            var builder = JSONDocumentBuilder(expectedBytes: buffer.count)
            let root = try JSONParser.parse(buffer, source: "t.json", into: &builder)
            let document = builder.finish()
            var found: [(literal: String, value: Double)] = []
            func walk(_ index: Int) {
                switch document.kind(at: index) {
                case .number: found.append((document.string(at: index), document.number(at: index)))
                case .array: document.elements(of: index).forEach(walk)
                case .object: document.members(of: index).forEach { walk($0.value) }
                default: break
                }
            }
            walk(root)
            return found
        }
    }

    /// Each literal parsed both inside an array (eight bytes follow it) and as the whole text
    /// (the last digits are read one by one), compared bit for bit with strtod.
    static func expectStrtodBits(_ literals: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let parsed = try numbers(in: "[" + literals.joined(separator: ",") + "]        ")
        #expect(parsed.count == literals.count, sourceLocation: sourceLocation)
        var mismatches: [String] = []
        for (literal, (text, value)) in zip(literals, parsed) {
            let expected = Double(literal)!.bitPattern
            if text != literal || value.bitPattern != expected { mismatches.append(literal) }
        }
        for literal in literals.prefix(20_000) {
            let alone = try numbers(in: literal)
            if alone.first?.value.bitPattern != Double(literal)!.bitPattern { mismatches.append(literal + " (alone)") }
        }
        #expect(mismatches.prefix(20) == [], sourceLocation: sourceLocation)
    }

    @Test func hardCasesHaveStrtodBits() throws {
        try Self.expectStrtodBits([
            // 2^53 ± 1 and the halfway cases around it.
            "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
            "18014398509481987", "18014398509481986", "18014398509481985", "-9007199254740993",
            "0.1", "0.2", "0.3", "1e22", "1e23", "8.41e21", "5e-324", "1e-320", "4.9406564584124654e-324",
            "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
            "2.2250738585072009e-308", "1e308", "1.7976931348623157e308", "1.7976931348623158e308",
            "1.7976931348623159e308", "1e-308", "1e-307", "9.999999999999999e22",
            // 17 to 20 significant digits, trailing zeros, zeros of every shape.
            "48.20253753662109", "16.368795394897461", "55.752222222222222", "-33.868819999999999",
            "1.2345678901234567", "12345678901234567.8", "0.12345678901234567890", "123456789012345678",
            "1234567890123456789", "12345678901234567890", "99999999999999999999", "18446744073709551615",
            "18446744073709551616", "10000000000000000000", "1.0000000000000000000000", "100000000000000000000000",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "7.2057594037927933e16", "3.0517578125e-5", "0.000000000000000000000000000001234567890123456789",
            "-0.0", "0", "-0", "0e5", "0.0e-999", "0.000", "1e0", "1E+2", "1e-0", "-1.5e-7",
            "2.5", "3.5", "1152921504606846977", "1152921504606846976e-10", "44.0", "0.30000000000000004",
            "123.456e64", "1.23456789012345678e-64", "1e65", "1e-65", "1e400", "-1e400", "1e-400",
        ])
    }

    @Test func everyLiteralOfTheStationsFileHasStrtodBits() throws {
        let text = try String(contentsOfFile: RealData.directory + "/stations.json", encoding: .utf8)
        let parsed = try Self.numbers(in: text)
        #expect(parsed.count == 28_484)
        let mismatches = parsed.filter { $0.value.bitPattern != Double($0.literal)!.bitPattern }.map(\.literal)
        #expect(mismatches.prefix(20) == [])
    }

    @Test func aMillionRandomLiteralsHaveStrtodBits() throws {
        var random = SplitMix64(seed: 15)  // the same million literals on every run
        var literals: [String] = []
        literals.reserveCapacity(1_000_000)
        for _ in 0..<1_000_000 {
            let length = Int.random(in: 1...20, using: &random)
            var digits: [UInt8] = [UInt8.random(in: UInt8(ascii: "1")...UInt8(ascii: "9"), using: &random)]
            for _ in 1..<length { digits.append(UInt8.random(in: UInt8(ascii: "0")...UInt8(ascii: "9"), using: &random)) }
            // A point anywhere (or none), a leading "0." sometimes, an exponent sometimes.
            let point = Int.random(in: 0...length, using: &random)
            if point == 0 { digits.insert(contentsOf: "0.".utf8, at: 0) } else if point < length { digits.insert(UInt8(ascii: "."), at: point) }
            var literal = String(decoding: digits, as: UTF8.self)
            if Bool.random(using: &random) { literal += "e" + String(Int.random(in: -30...30, using: &random)) }
            if Bool.random(using: &random) { literal = "-" + literal }
            literals.append(literal)
        }
        try Self.expectStrtodBits(literals)
    }

    /// What the parser says of `text`: the reason and the offset of its first error.
    static func failure(of text: String) -> (reason: JSONError.Reason, offset: Int)? {
        do {
            _ = try numbers(in: text)
            return nil
        } catch let .json(error) {
            return (error.reason, error.offset)
        } catch {
            return nil
        }
    }

    @Test func invalidLiteralsReportTheSameTextAndOffset() {
        let cases: [(text: String, literal: String, offset: Int)] = [
            ("[-]", "-", 1), ("[-a]", "-a", 1), ("[01]", "01", 1), ("[-01]", "-01", 1), ("[00.5]", "00.5", 1),
            ("[1.]", "1.", 1), ("[1.e5]", "1.e5", 1), ("[1e]", "1e", 1), ("[1e+]", "1e+", 1), ("[1E-x]", "1E-x", 1),
            ("[12345678.]", "12345678.", 1), ("[123456789012.x, 1]", "123456789012.x", 1),
            ("[0.12345678e]", "0.12345678e", 1), ("{\"a\": -.5}", "-.5", 6), ("  -", "-", 2), ("1.", "1.", 0),
            ("1234567890123456789012.", "1234567890123456789012.", 0),
            ("[123456789012345678901234567890.]", "123456789012345678901234567890.", 1),
            ("[1.5e+\n]", "1.5e+", 1), ("[-\t1]", "-", 1),
        ]
        for (text, literal, offset) in cases {
            let failure = Self.failure(of: text)
            #expect(failure?.reason == .invalidNumber(literal), "\(text)")
            #expect(failure?.offset == offset, "\(text)")
        }
    }

    @Test func eightDigitsReadsTheLeadingDigitsOfAWord() {
        for text in ["12345678", "1234567x", "0000000.", "9,", "x2345678", "00012345", "90000000"] {
            let bytes = Array((text + String(repeating: " ", count: 8)).utf8.prefix(8))
            let word = bytes.withUnsafeBufferPointer { EightDigits.load($0.baseAddress!) }
            let run = text.prefix { $0.isASCII && $0.isNumber }.count
            #expect(EightDigits.leadingDigitCount(word) == run, "\(text)")
            if run > 0 {
                let aligned = EightDigits.aligned(word, run: run)
                #expect(EightDigits.value(aligned) == UInt64(text.prefix(run))!, "\(text)")
                let significant = text.prefix(run).drop { $0 == "0" }.count
                #expect(EightDigits.significantCount(aligned) == significant, "\(text)")
            }
        }
    }
}
