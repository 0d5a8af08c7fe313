import Foundation
import Testing
@testable import AlmanacCore

/// A key named twice in one object: one member stays, in the first one's place with the last
/// one's value, wherever the object is (nested, inside a value that is itself dropped, in the
/// second half of a large file parsed on two threads), and the object is recorded once.
@Suite struct RepeatedKeyTests {
    static func parse(_ text: String) throws -> JSONDocument {
        var builder = JSONDocumentBuilder()
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { buffer throws(LoadFailure) in
            _ = try JSONParser.parse(buffer, source: "t.json", into: &builder)
        }
        return builder.finish()
    }

    static func written(_ document: JSONDocument) -> String {
        JSONWriter.string(document.value(at: document.roots[0]))
    }

    @Test("the last value wins, in the first one's place; nested repeats are kept right as their containers move")
    func lastValueWins() throws {
        let document = try Self.parse(#"""
            {"a": 1, "b": [1, {"c": 2, "c": {"z": [3, {"q": 1, "q": 2}]}}], "a": {"x": [1, 2], "y": {"r": 0, "r": [5]}}, "d": "z",
             "b": [{"e": 1, "e": 2}, 7]}
            """#)
        let expected = try Self.parse(#"{"a": {"x": [1, 2], "y": {"r": [5]}}, "b": [{"e": 2}, 7], "d": "z"}"#)
        #expect(Self.written(document) == Self.written(expected))
        #expect(document.nodes.count == expected.nodes.count)
        // Recorded: the root, and the objects kept inside it (those inside the first 'b' went with it).
        let recorded = document.repeatedKeys.map { "\($0.key)@\(JSONWriter.string(document.value(at: $0.object)))" }
        #expect(recorded == [#"a@{"a":{"x":[1,2],"y":{"r":[5]}},"b":[{"e":2},7],"d":"z"}"#, #"r@{"r":[5]}"#, #"e@{"e":2}"#], "\(recorded)")
        #expect(document.repeatedKey(within: document.roots[0])?.key == "a")
    }

    @Test("long keys (not interned) and objects without repeats")
    func longKeys() throws {
        let long = String(repeating: "k", count: 100)
        let document = try Self.parse(#"[{"\#(long)": 1, "other": 2, "\#(long)": 3}, {"\#(long)": 4, "\#(long)x": 5}]"#)
        #expect(Self.written(document) == #"[{"\#(long)":3,"other":2},{"\#(long)":4,"\#(long)x":5}]"#)
        #expect(document.repeatedKeys.map(\.key) == [long])
        let records = document.elements(of: document.roots[0])
        #expect(document.repeatedKey(within: records[0])?.key == long)
        #expect(document.repeatedKey(within: records[1]) == nil)
    }

    @Test("a file parsed on two threads gives the same records and the same repeats as on one")
    func twoThreads() throws {
        // 5.4 MB: a second thread parses the second half.
        let records = (0..<40_000).map { #"{"id": \#($0), "name": "n\#($0)", "k": "first", "pad": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "k": \#($0)}"# }
        let text = "[" + records.joined(separator: ",\n") + "]"
        let path = NSTemporaryDirectory() + "/repeated-keys-\(getpid()).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(text.utf8.count >= FileContents.secondThreadFrom)
        let (split, _) = try JSONSplitTests.parseFile(path, split: JSONSplit())
        let (alone, _) = try DatasetLoader().parseFile(at: path, source: .file(path: path), progress: LoadProgress(),
                                                         cancellation: .never, firstAttempt: false)
        for document in [split, alone] {
            let elements = document.elements(of: document.roots[0])
            #expect(elements.count == 40_000)
            #expect(document.repeatedKeys.count == 40_000)
            #expect(JSONWriter.string(document.value(at: elements[39_999])) == #"{"id":39999,"name":"n39999","k":39999,"pad":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#)
            #expect(elements.allSatisfy { document.repeatedKey(within: $0)?.object == $0 })
        }
        #expect(Self.written(split) == Self.written(alone))
    }

    @Test("an object around the split point that repeats a key: the file is parsed again on one thread, the last value kept")
    func repeatAroundTheSplit() throws {
        // 5.7 MB: over the size from which a second thread parses.
        let records = (0..<60_000).map { #"{"id": \#($0), "pad": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"# }
        let text = #"{"list": ["# + records.joined(separator: ",\n") + #"], "list": [1, 2], "count": 2}"#
        let path = NSTemporaryDirectory() + "/repeated-around-split-\(getpid()).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // On two threads first: the split is inside the first 'list'.
        #expect(throws: LoadFailure.retry) {
            try DatasetLoader().parseFile(at: path, source: .file(path: path), progress: LoadProgress(), cancellation: .never, firstAttempt: true)
        }
        let (document, _, _) = try DatasetLoader().parse(.file(path: path), progress: LoadProgress(), cancellation: .never)
        #expect(Self.written(document) == #"{"list":[1,2],"count":2}"#)
        #expect(document.repeatedKeys.map(\.key) == ["list"])
    }
}
