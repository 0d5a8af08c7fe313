import Testing
@testable import AlmanacCore

/// ISO 8601 dates order by the instant they stand for, as date arithmetic reads them (a date
/// without a time is midnight UTC, a time without an offset UTC): `filter` with `<`, `<=`, `>`,
/// `>=` against a date, `sort` of a field (nearly) all of dates, and TopSort's first page.
@Suite struct DateOrderingTests {
    /// The instants, worked out by hand: r1 00:00:00Z, r7 00:00:00.5Z, r4 01:59:59Z, r8 12:00Z,
    /// r3 18:30Z, r2 23:30Z, all on 2024-01-01; r5 and r6 have no value.
    static let dataset = try! MapTests.generic("""
        [{"name": "r1", "when": "2024-01-01"},
         {"name": "r2", "when": "2024-01-01T23:30:00Z"},
         {"name": "r3", "when": "2024-01-01T23:30:00+05:00"},
         {"name": "r4", "when": "2023-12-31T23:59:59-02:00"},
         {"name": "r5", "when": "unknown"},
         {"name": "r6", "when": null},
         {"name": "r7", "when": "2024-01-01T00:00:00.500Z"},
         {"name": "r8", "when": "2024-01-01 12:00"}]
        """)

    static func kept(_ text: String, _ dataset: Dataset = dataset) throws -> [String] {
        let expression = try FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: text)))
        return names(try Filter.run(expression, on: .all([dataset])))
    }

    @Test("filter against a date compares instants", arguments: [
        ("when < 2024-01-01", []),
        ("when > 2024-01-01T01:00:00Z", ["r2", "r3", "r4", "r8"]),
        ("when <= 2024-01-01T01:59:59Z", ["r1", "r4", "r7"]),
        ("when >= 2024-01-01T18:30:00Z", ["r2", "r3"]),
        ("when < 2024-01-01T12:00:00+01:00", ["r1", "r4", "r7"]),
        ("when > \"2024-01-01 12:00\"", ["r2", "r3"]),
        ("when >= 2023-12-31", ["r1", "r2", "r3", "r4", "r7", "r8"]),
    ])
    func filterByInstant(_ filter: String, _ expected: [String]) throws {
        #expect(try Self.kept(filter) == expected)
    }

    @Test("= and != a date still compare the text as written")
    func equalityIsText() throws {
        #expect(try Self.kept("when = 2024-01-01") == ["r1"])
        #expect(try Self.kept("when = 2024-01-01T00:00:00Z").isEmpty)
        #expect(try Self.kept("when != 2024-01-01") == ["r2", "r3", "r4", "r5", "r6", "r7", "r8"])
    }

    @Test("text that is no date, and numbers, are neither before nor after a date")
    func otherValuesDoNotOrder() throws {
        let mixed = try MapTests.generic("""
            [{"name": "a", "v": "2024-03-01"}, {"name": "b", "v": "March"}, {"name": "c", "v": 2024},
             {"name": "d", "v": "2024-3-1"}, {"name": "e", "v": true}, {"name": "f", "v": ["2023-01-01", "zzz"]}]
            """)
        #expect(try Self.kept("v < 2024-02-01", mixed) == ["f"])
        #expect(try Self.kept("v > 2024-02-01", mixed) == ["a"])
        #expect(try Self.kept("v ~ 2024", mixed) == ["a", "c", "d"])
    }

    @Test("sort by a field of dates orders the instants, absent values last both ways; a page of it alike")
    func sortByInstant() throws {
        let ascending = try Sort.run(.all([Self.dataset]), by: [SortKey("when")])
        #expect(names(ascending) == ["r1", "r7", "r4", "r8", "r3", "r2", "r5", "r6"])
        let descending = try Sort.run(.all([Self.dataset]), by: [SortKey("when", descending: true)])
        #expect(names(descending) == ["r2", "r3", "r8", "r4", "r7", "r1", "r5", "r6"])
        let results = ResultSet.all([Self.dataset])
        let first = try TopSort.first(3, of: results, by: [SortKey("when")], cancellation: .never)
        #expect(first.map { results.dataset(of: results.items[$0]).name(of: results.items[$0].row) } == ["r1", "r7", "r4"])
    }

    @Test("a stray word among dates sorts with the absent values; few dates among words sort as text")
    func sortDecidesByTheMajority() throws {
        let mostlyDates = try MapTests.generic("""
            [{"name": "a", "v": "2024-01-02T00:00:00+03:00"}, {"name": "b", "v": "soon"}, {"name": "c", "v": "2024-01-01T22:00:00Z"},
             {"name": "d", "v": "2024-01-01"}, {"name": "e", "v": "2024-01-01T21:30:00Z"}]
            """)
        #expect(names(try Sort.run(.all([mostlyDates]), by: [SortKey("v")])) == ["d", "a", "e", "c", "b"])
        let mostlyWords = try MapTests.generic("""
            [{"name": "a", "v": "2024-01-02T00:00:00+03:00"}, {"name": "b", "v": "soon"}, {"name": "c", "v": "later"},
             {"name": "d", "v": "2024-01-01T22:00:00Z"}]
            """)
        #expect(names(try Sort.run(.all([mostlyWords]), by: [SortKey("v")])) == ["d", "a", "c", "b"])
    }
}
