import Testing
@testable import AlmanacCore

/// `<`, `<=`, `>`, `>=` against a word: null and the words for no value (`""`, `n/a`,
/// `unknown`, `none`, `(none)`, any case, padded with spaces) are neither more nor less than
/// anything, as SQL's NULL; `=` and `~` still read the words as words, and `!=` keeps every
/// record `=` does not (those with no value too). Over a column (`value`) and a list (`tags`,
/// read a record at a time).
@Suite struct NoValueOrderingTests {
    static let dataset = try! MapTests.generic("""
        [{"name": "r1", "value": "apple", "tags": ["n/a", "kiwi"]},
         {"name": "r2", "value": "", "tags": ["unknown"]},
         {"name": "r3", "value": "n/a", "tags": []},
         {"name": "r4", "value": "Unknown", "tags": ["none", "Zed"]},
         {"name": "r5", "value": "none"},
         {"name": "r6", "value": "(none)"},
         {"name": "r7", "value": null, "tags": null},
         {"name": "r8"},
         {"name": "r9", "value": "zebra", "tags": ["apple"]},
         {"name": "r10", "value": " None ", "tags": [null]},
         {"name": "r11", "value": "nonesuch"}]
        """)

    /// The names the filter keeps, `"…"` quoting as typed.
    static func kept(_ text: String) throws -> [String] {
        let expression = try FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: text)))
        return names(try Filter.run(expression, on: .all([dataset])))
    }

    @Test("a column: only the words that are values order", arguments: [
        ("value > m", ["r9", "r11"]),
        ("value >= m", ["r9", "r11"]),
        ("value < b", ["r1"]),
        ("value <= zebra", ["r1", "r9", "r11"]),
        ("value >= \"\"", ["r1", "r9", "r11"]),
        ("value < \"~\"", ["r1", "r9", "r11"]),
    ])
    func column(_ filter: String, _ expected: [String]) throws {
        #expect(try Self.kept(filter) == expected)
    }

    @Test("a list: an element that is no value never matches, the others still do", arguments: [
        ("tags > j", ["r1", "r4"]),
        ("tags < o", ["r1", "r9"]),
        ("tags >= a", ["r1", "r4", "r9"]),
    ])
    func list(_ filter: String, _ expected: [String]) throws {
        #expect(try Self.kept(filter) == expected)
    }

    @Test("= and ~ read the words as words; != and not keep the records with no value")
    func equalityIsUnchanged() throws {
        #expect(try Self.kept("value = unknown") == ["r4"])
        #expect(try Self.kept("value = \"\"") == ["r2"])
        #expect(try Self.kept("value ~ none") == ["r5", "r6", "r10", "r11"])
        #expect(try Self.kept("value != apple") == ["r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11"])
        #expect(try Self.kept("not value > m") == ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r10"])
        #expect(try Self.kept("tags = unknown") == ["r2"])
    }

    @Test("why: a null and a word for none fail an ordered condition")
    func whyFails() throws {
        let condition = try FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: "value > a")))
        for row in [1, 2, 3, 6, 9] {
            let checks = try ConditionCheck.check([condition], on: RecordRef(dataset: Self.dataset, row: row))
            #expect(checks.map(\.holds) == [false], "r\(row + 1)")
        }
        let apple = try ConditionCheck.check([condition], on: RecordRef(dataset: Self.dataset, row: 0))
        #expect(apple == [ConditionCheck(condition: "value > a", holds: true, values: ["value apple"])])
    }
}
