import Foundation
import Testing
@testable import AlmanacCore

/// The builder guesses each key from the key before and each short value from its key
/// (`InternGuesses`); a guess is only used once its bytes are confirmed. Whether guesses hit,
/// miss or collide, the nodes and the arena must be word for word those of a builder that
/// always looks strings up in its tables.
@Suite struct InternGuessTests {
    static func build(_ text: String, guessing: Bool) throws -> JSONDocumentBuilder {
        var builder = JSONDocumentBuilder(expectedBytes: 0, detached: false, guessing: guessing)
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBufferPointer { buffer throws(LoadFailure) in
            _ = try JSONParser.parse(buffer, source: "t.json", into: &builder)
        }
        return builder
    }

    /// Asserts that guessing changes nothing in what `text` builds.
    static func expectSameAsLookups(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let guessed = try build(text, guessing: true)
        let looked = try build(text, guessing: false)
        #expect(guessed.nodes == looked.nodes, sourceLocation: sourceLocation)
        #expect(guessed.arena == looked.arena, sourceLocation: sourceLocation)
        #expect(guessed.keys.count == looked.keys.count, sourceLocation: sourceLocation)
    }

    @Test("a repeated key and value take the first one's words: offset and length in the arena")
    func repeatedWordsPinned() throws {
        let builder = try Self.build(#"[{"a":"x"},{"a":"x"}]"#, guessing: true)
        let string: UInt64 = 3 << 60
        // [array 0–1] [object 2–3] key 4, value 5 [object 6–7] key 8, value 9.
        #expect(builder.nodes[4] == string | 0 << 22 | 1)
        #expect(builder.nodes[5] == string | 1 << 22 | 1)
        #expect(builder.nodes[8] == string | 0 << 22 | 1)
        #expect(builder.nodes[9] == string | 1 << 22 | 1)
        #expect(builder.arena == Array("ax".utf8))
    }

    @Test("keys in another order, a key missing, a new key, a long key: the guess misses, the table answers")
    func keyGuessMisses() throws {
        let long = String(repeating: "k", count: 70)
        try Self.expectSameAsLookups(#"""
            [{"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 2, "c": 3}, {"c": 3, "b": 2, "a": 1}, {"a": 1, "c": 3},
             {"a": 1, "x": 0, "b": 2, "c": 3}, {"\#(long)": 1, "a": 2}, {"a": 1, "\#(long)": 2, "b": 3}, {}, {"a": {"a": {"b": 1}}, "b": 2}]
            """#)
    }

    @Test("the first key of an object is guessed by what holds it, and alternating followers swap places")
    func objectStartsAndAlternation() throws {
        try Self.expectSameAsLookups(#"""
            [{"city": "A", "point": {"lon": 1, "lat": 2}, "region": "", "stations": [
                {"city": "A", "point": {"lon": 1, "lat": 2}, "region": "", "id": 1},
                {"city": "A", "point": {"lat": 2, "lon": 1}, "region": "", "id": 2}]},
             {"city": "B", "point": {"lon": 1, "lat": 2}, "region": "", "stations": []},
             {"city": "B", "point": {}, "region": "x", "id": 3}]
            """#)
    }

    @Test("a value equal to the guessed one but shorter or longer, or as long and different in one byte")
    func valueGuessMisses() throws {
        // Lengths 0–3, 4–7, 8, 9–16 and over 16 take different compares; each differs from the
        // value before it in its first, middle or last byte only.
        let values = ["", "a", "ab", "abc", "abd", "bbc", "abcd", "abce", "abcdefg", "xbcdefg", "abcdefgh", "abcdefgi",
                      "abcdefghi", "abcdefghj", "abcdefgh", "Вена", "город Вена", "город Вены", "Вена",
                      "abcdefghijklmnopq", "abcdefghijklmnopr", "bbcdefghijklmnopq", "abcdefghijklmnopq", "", "a", "a"]
        let members = values.map { #"{"title": "\#($0)", "other": "\#($0)"}"# }
        try Self.expectSameAsLookups("[" + members.joined(separator: ", ") + ", " + values.map { #""\#($0)""# }.joined(separator: ", ") + "]")
    }

    @Test("more than the guess slots' worth of keys: guesses collide and only miss")
    func collidingSlots() throws {
        let keys = (0..<700).map { "key\($0)" }
        let object = "{" + keys.enumerated().map { #""\#($1)": "\#($0 % 3)""# }.joined(separator: ", ") + "}"
        let reversed = "{" + keys.reversed().map { #""\#($0)": "v""# }.joined(separator: ", ") + "}"
        try Self.expectSameAsLookups("[\(object), \(reversed), \(object)]")
    }

    @Test("a part parsed detached with guesses merges into the same nodes as without")
    func detachedPartWithGuesses() throws {
        let element = #"{"country": "A", "point": {"lon": 1, "lat": 2}, "city": "C", "title": "T"}"#
        let text = "[" + Array(repeating: element, count: 5).joined(separator: ", ")
            + #", {"country": "B", "point": {"lon": 1, "lat": 2}, "city": "D", "title": "U"}, "#
            + Array(repeating: element, count: 3).joined(separator: ", ") + "]"
        let bytes = Array(text.utf8)
        // The part starts at the sixth element; the main builder parses the first five.
        let start = bytes.indices.filter { $0 >= 2 && bytes[$0] == UInt8(ascii: "{") && bytes[$0 - 2] == UInt8(ascii: ",") }[4]
        func merged(guessing: Bool) throws -> JSONDocumentBuilder {
            try bytes.withUnsafeBufferPointer { buffer in
                var part = JSONDocumentBuilder(expectedBytes: 0, detached: true, guessing: guessing)
                let levels = JSONParser.parseSuffix(buffer, from: start, source: "t.json", into: &part)
                #expect(levels?.levels.count == 1)
                var main = JSONDocumentBuilder(expectedBytes: 0, detached: false, guessing: guessing)
                let prefix = Array(text.utf8.prefix(start - 2)) + Array("]".utf8)
                try prefix.withUnsafeBufferPointer { prefixBuffer throws(LoadFailure) in
                    _ = try JSONParser.parse(prefixBuffer, source: "t.json", into: &main)
                }
                _ = main.appendDetached(part)
                return main
            }
        }
        let guessed = try merged(guessing: true)
        let looked = try merged(guessing: false)
        #expect(guessed.nodes == looked.nodes)
        #expect(guessed.arena == looked.arena)
    }

    @Test("short byte compares agree with element-wise equality at every length and differing byte")
    func shortBytesEquality() {
        for length in 0...40 {
            let base = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            base.withUnsafeBufferPointer { left in
                var same = base
                same.withUnsafeMutableBufferPointer { right in
                    #expect(ShortBytes.equal(left.baseAddress ?? UnsafePointer(bitPattern: 1)!,
                                             UnsafePointer(right.baseAddress ?? UnsafeMutablePointer(bitPattern: 1)!), count: length))
                    for index in 0..<length {
                        right[index] ^= 0x40
                        #expect(!ShortBytes.equal(left.baseAddress!, UnsafePointer(right.baseAddress!), count: length), "length \(length) byte \(index)")
                        right[index] ^= 0x40
                    }
                }
            }
        }
    }

    @Test("an empty string hashes the same with or without an address")
    func emptyHash() {
        let empty: [UInt8] = [7]
        let withAddress = empty.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[0..<0]) }
        #expect(withAddress.baseAddress != nil)
        #expect(InternTable.hash(withAddress) == InternTable.hash(UnsafeBufferPointer(start: nil, count: 0)))
    }
}
