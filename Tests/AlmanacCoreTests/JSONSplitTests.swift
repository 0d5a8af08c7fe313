import Foundation
import Testing
@testable import AlmanacCore

/// A text parsed by two threads (`JSONSplit`) must give exactly the document, or exactly the
/// error, that one parser gives alone. These tests run the other thread's part first, on the
/// test's own thread, so that every split point can be tried deterministically.
@Suite struct JSONSplitTests {
    enum Outcome: Equatable {
        case document(String)
        case failure(String)
        /// The split parse asked for a sequential parse (only an invalid text may do so).
        case retry
    }

    /// Parses `text` alone, or with the other part starting at the first boundary at or after `splitFrom`.
    static func parse(_ text: [UInt8], splitFrom: Int? = nil, limits: JSONParser.Limits = JSONParser.Limits())
        -> (outcome: Outcome, spliced: Bool) {
        text.withUnsafeBufferPointer { bytes in
            var builder = JSONDocumentBuilder(expectedBytes: bytes.count)
            let split = splitFrom.map { from in
                let split = JSONSplit()
                split.parseRest(of: bytes, from: from, source: "t.json", limits: limits)
                return split
            }
            do throws(LoadFailure) {
                let root = try JSONParser.parse(bytes, source: "t.json", into: &builder, limits: limits, split: split)
                let document = builder.finish()
                return (.document(describe(document, root)), split?.wasSpliced ?? false)
            } catch .retry {
                return (.retry, split?.wasSpliced ?? false)
            } catch {
                return (.failure("\(error)"), split?.wasSpliced ?? false)
            }
        }
    }

    /// The document as its nodes say it: kinds, counts and container ends by index, the text
    /// of strings and numbers, the bits of numbers; and a check that equal short strings
    /// share one node word.
    static func describe(_ document: JSONDocument, _ root: Int) -> String {
        var lines: [String] = ["root \(root)"]
        var words: [String: UInt64] = [:]
        var index = 0
        while index < document.nodes.count {
            let kind = document.kind(at: index)
            switch kind {
            case .array, .object:
                lines.append("\(index) \(kind) \(document.count(at: index)) end \(document.end(of: index))")
                index += 2
            case .number:
                lines.append("\(index) number \(document.string(at: index)) \(document.number(at: index).bitPattern)")
                index += 2
            case .string:
                let text = document.string(at: index)
                lines.append("\(index) string \(text.debugDescription)")
                if text.utf8.count <= JSONDocumentBuilder.internLimit {
                    if let word = words[text], word != document.node(index) { lines.append("NOT INTERNED \(text.debugDescription)") }
                    words[text] = document.node(index)
                }
                index += 1
            default:
                lines.append("\(index) \(kind)")
                index += 1
            }
        }
        lines += document.repeatedKeys.map { "repeated key \($0.key.debugDescription) in \($0.object)" }
        return lines.joined(separator: "\n")
    }

    /// Every offset of the text as a split point: each gives the document parsed alone.
    static func expectSameAtEverySplit(_ text: String, limits: JSONParser.Limits = JSONParser.Limits(),
                                       sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        let bytes = Array(text.utf8)
        let alone = parse(bytes, limits: limits).outcome
        var spliced = 0
        for from in 1..<bytes.count {
            let (outcome, didSplice) = parse(bytes, splitFrom: from, limits: limits)
            if didSplice { spliced += 1 }
            if outcome == alone { continue }
            if outcome == .retry, case .failure = alone { continue }
            // An object around the split that repeats a key is parsed again on one thread.
            if outcome == .retry, case let .document(described) = alone, described.contains("\nrepeated key ") { continue }
            Issue.record("split from \(from) of \(text.debugDescription): \(outcome) but alone \(alone)", sourceLocation: sourceLocation)
            return spliced
        }
        return spliced
    }

    @Test func stationsShapeSplitsAtEveryElementAndGivesTheSameDocument() {
        let text = """
        {
          "citiesFrom" : [
            {"cityTitle" : "Вена", "stations" : [{"id": 1, "t": "a"}, {"id": 2, "t": "b"}], "point": {"x": 1.5}},
            {"cityTitle" : "Вена", "stations" : [], "point": {"x": -2e3}},
            {"cityTitle" : "Paris", "stations" : [{"id": 3, "t": "a"}], "point": {"x": 0}}
          ],
          "citiesTo" : [
            {"cityTitle" : "Вена", "stations" : [{"id": 1, "t": "a"}, {"id": 4, "t": "long \(String(repeating: "x", count: 80))"}]},
            {"cityTitle" : "Rome", "stations" : [{"id": 5, "t": "b"}, {}, {"t": true, "n": null, "f": false}]}
          ],
          "count" : 7
        }
        """
        let spliced = Self.expectSameAtEverySplit(text)
        // Every `}` `,` `{` between elements is a boundary that is taken.
        #expect(spliced > 50)
    }

    @Test func boundariesInsideStringsAreNeverTaken() {
        let text = #"[{"a": "},{"}, {"b": "x\"},{\"y"}, {"c": "},   {"}, {"d": [{"e": "},{"}, {"f": 1}]}]"#
        let spliced = Self.expectSameAtEverySplit(text)
        #expect(spliced > 0)
    }

    @Test func outerLevelsOfEveryKindAreClosed() {
        for text in [
            #"[[{"a":1},{"a":2}],[{"b":3},{"b":4}],5,"s",[]]"#,
            #"{"x":{"y":[{"a":1},{"a":2},{"a":3}],"z":"after"},"w":[{"q":{}},{"q":[]}],"v":{}}"#,
            #"[{"k":[{"a":1},{"b":2}]},{"k":[{"a":1},{"b":2}],"m":"more"},[{"c":3},{"d":4}]]"#,
            "{\"a\" : [ {\"k\" : \"v\"} ,\n\t{\"k\" : \"w\"} ] , \"b\" : [ { } , { } ] }\n\n",
            #"{"a":[{},{}],"key":"value","key2":["x","y"],"key3":{"n":[{"p":1},{"p":2}]}}"#,
        ] {
            let spliced = Self.expectSameAtEverySplit(text)
            #expect(spliced > 0, "\(text)")
        }
    }

    @Test func invalidTextsGiveTheSameErrorOrAskForASequentialParse() {
        // Each is invalid after a boundary: a wrong closing bracket, a missing or extra one,
        // trailing text, a key where an element belongs, a value where a key belongs.
        for text in [
            #"{"a":[{"x":1},{"x":2}}}"#,
            #"[{"a":[{"x":1},{"x":2}]]]"#,
            #"[{"x":1},{"x":2}] {"y":3}"#,
            "[{\"x\":1},{\"x\":2}]\n{\"y\":3}",
            #"{"a":[{"x":1},{"x":2}],"b":1,2}"#,
            #"[{"x":1},{"x":2}],"k":3]"#,
            #"{"a":[{"x":1},{"x":2}]"#,
            #"[{"x":1},{"x":2},]"#,
            #"[{"x":1},{"x":"\u12G4"}]"#,
            #"[{"x":1},{"x":2}"#,
            #"{"a":[{"x":1},{"x":2}]]"#,
            #"[[{"x":1},{"x":2}}]"#,
        ] {
            let alone = Self.parse(Array(text.utf8)).outcome
            guard case .failure = alone else {
                Issue.record("\(text) should be invalid, parsed as \(alone)")
                continue
            }
            _ = Self.expectSameAtEverySplit(text)
        }
    }

    @Test func theDepthLimitHoldsAcrossTheSplit() {
        var limits = JSONParser.Limits()
        limits.maximumDepth = 4
        // Depth 4 is allowed, 5 is not: on either side of the boundary.
        for text in [
            #"[{"a":[{"b":1},{"b":2}]},{"a":[{"b":1},{"b":[]}]}]"#,
            #"[{"a":[{"b":1},{"b":[[]]}]}]"#,
            #"[{"a":[{"b":[[]]},{"b":2}]}]"#,
            #"[[{"a":[{"b":1},{"b":2}]}]]"#,
        ] {
            _ = Self.expectSameAtEverySplit(text, limits: limits)
        }
    }

    @Test func randomDocumentsGiveTheSameDocumentAtEverySplit() {
        var random = SplitMix64(seed: 0x5EED_5B11)
        var spliced = 0
        for round in 0..<150 {
            let text = RandomJSON.value(&random, depth: 0, pretty: round % 2 == 0)
            spliced += Self.expectSameAtEverySplit(text)
        }
        #expect(spliced > 1000)
    }

    @Test func aLargeFileLoadsOnTwoCoresAsItDoesOnOne() throws {
        let scratch = Scratch()
        // Over the size from which a file is parsed on two threads.
        var elements = ""
        var count = 0
        while elements.utf8.count < FileContents.secondThreadFrom + (1 << 20) {
            elements += "  {\"id\": \(count), \"name\": \"имя \(count % 1000)\", \"tags\": [\"a\", \"b\(count % 7)\"], \"x\": \(Double(count) / 8)},\n"
            count += 1
        }
        elements += "  {\"id\": -1}\n"
        count += 1
        let text = "{\"results\": [\n" + elements + "], \"count\": \(count)}\n"
        let path = scratch.file("big.json", text)
        let split = JSONSplit()
        let (document, _) = try Self.parseFile(path, split: split)
        #expect(split.wasSpliced)
        #expect(Self.parse(Array(text.utf8)).outcome == .document(Self.describe(document, document.roots[0])))
        #expect(try load("big", path, model: GenericModel.self).records.count == count)

        // Errors in the second half are reported where they are, as without a split: a wrong
        // closing bracket, a bad number, and brackets the other thread reads as a valid end
        // but of containers other than the ones around it (the split parse then asks for a
        // sequential one).
        for (bad, expected, retried) in [
            ("{\"results\": [\n" + elements + "], \"count\": 1]\n", "expected ',' or '}', found ']'", false),
            ("{\"results\": [\n" + elements + "}, \"count\": 1}\n", "expected ',' or ']', found '}'", false),
            ("{\"results\": [\n" + elements + "], \"count\": 1.}\n", "invalid number", false),
            ("[[\n" + elements + "], \"count\": 1}\n", "expected ',' or ']', found ':'", true),
        ] {
            let badPath = scratch.file("bad.json", bad)
            guard case let .failure(aloneMessage) = Self.parse(Array(bad.utf8)).outcome else {
                Issue.record("\(expected): should not parse")
                continue
            }
            let split = JSONSplit()
            do throws(LoadFailure) {
                _ = try Self.parseFile(badPath, split: split)
                Issue.record("\(expected): parsed")
            } catch {
                #expect((error == .retry) == retried, "\(error)")
                #expect(split.wasSpliced == retried)
            }
            let message = failure { try load("bad", badPath, model: GenericModel.self) }
            #expect(message == aloneMessage.replacingOccurrences(of: "t.json", with: badPath))
            #expect(message.contains(expected), "\(message)")
        }
    }

    static func parseFile(_ path: String, split: JSONSplit) throws(LoadFailure) -> (JSONDocument, Int) {
        try DatasetLoader().parseFile(at: path, source: .file(path: path), progress: LoadProgress(),
                                      cancellation: .never, firstAttempt: true, split: split)
    }
}

/// Random JSON texts with the shapes that matter to a split: arrays of objects, nesting,
/// strings that look like boundaries, escapes, non-ASCII text.
enum RandomJSON {
    static let strings = ["", "a", "Вена", "},{", "} , {", "x\\\"},{\\\"y", "\\u00e9t\\u00E9", "🚂", "São Paulo", "a\\nb",
                          String(repeating: "long", count: 20)]

    static func value(_ random: inout SplitMix64, depth: Int, pretty: Bool) -> String {
        let space = pretty ? [" ", "\n  ", "", "\t"][Int(random.next() % 4)] : ""
        let choice = depth >= 4 ? Int(random.next() % 4) : Int(random.next() % 8)
        switch choice {
        case 0: return "\"" + strings[Int(random.next() % UInt64(strings.count))] + "\""
        case 1: return ["0", "-1.5", "3e2", "12345678901234567890", "0.1"][Int(random.next() % 5)]
        case 2: return ["true", "false", "null"][Int(random.next() % 3)]
        case 3: return "\"k\(random.next() % 5)\""
        case 4, 5:
            let count = Int(random.next() % 5)
            let elements = (0..<count).map { _ in objectOrValue(&random, depth: depth + 1, pretty: pretty) }
            return "[" + space + elements.joined(separator: "," + space) + space + "]"
        default:
            let count = Int(random.next() % 4)
            let members = (0..<count).map { _ in
                "\"" + ["id", "name", "stations", "},{", "k\(random.next() % 3)"][Int(random.next() % 5)] + "\"" + space + ":" + space
                    + value(&random, depth: depth + 1, pretty: pretty)
            }
            return "{" + space + members.joined(separator: "," + space) + space + "}"
        }
    }

    /// Arrays hold objects most of the time, as the real files do.
    private static func objectOrValue(_ random: inout SplitMix64, depth: Int, pretty: Bool) -> String {
        if random.next() % 3 != 0, depth < 5 {
            let count = Int(random.next() % 3)
            let members = (0..<count).map { index in "\"m\(index)\":" + value(&random, depth: depth + 1, pretty: pretty) }
            return "{" + members.joined(separator: ",") + "}"
        }
        return value(&random, depth: depth, pretty: pretty)
    }
}
