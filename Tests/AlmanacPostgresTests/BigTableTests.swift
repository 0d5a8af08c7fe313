import AlmanacCore
import Foundation
import PostgresCluster
import Synchronization
import Testing
@testable import AlmanacPostgres

/// The 2,000,000-row table (generated once per run): counted, filtered, sorted, searched,
/// grouped and paged in the database, one page at a time; expected answers computed here from
/// the formula that generated the rows.
@Suite struct BigTableTests {
    static let rows = TestCluster.bigRows

    func big() throws -> PostgresTable {
        let cluster = try TestCluster.shared()
        try cluster.bigTable()
        return try PostgresTable.attach(name: "big", url: PostgresURL(cluster.url(table: "big")))
    }

    static func score(_ i: Int) -> Int { i * 7919 % 1_000_003 }

    @Test func countsFiltersAndGroups() throws {
        let table = try big()
        #expect(try table.count() == Self.rows)
        #expect(try table.count(TableQuery(filters: [parseFilter("bucket = 7")])) == Self.rows / 1000)
        let lowScores = (1...Self.rows).filter { Self.score($0) < 1000 }.count
        #expect(try table.count(TableQuery(filters: [parseFilter("score < 1000")])) == lowScores)
        #expect(try table.count(TableQuery(filters: [parseFilter("category = C7 and info.n >= 50")])) == (1...Self.rows).filter {
            $0 % 10 != 0 && $0 % 50 == 7 && $0 % 100 >= 50 }.count)
        #expect(try table.count(TableQuery(filters: [parseFilter("info.tags = t2 and not bucket < 500")])) == (1...Self.rows).filter {
            $0 % 3 == 2 && $0 % 1000 >= 500 }.count)
        let groups = try table.group(by: GroupSpec(fields: ["category"]), limit: 3)
        #expect(groups.first?.values == [""])
        #expect(groups.first?.count == Self.rows / 10)
        #expect(groups.dropFirst().map(\.values) == [["c1"], ["c11"]])
    }

    @Test func sortsAndPagesFetchOnePage() throws {
        let table = try big()
        let best = try table.page(TableQuery(sort: [SortKey("score", descending: true)]), limit: 5)
        let expected = (1...Self.rows).sorted { (Self.score($0), -$0) > (Self.score($1), -$1) }.prefix(5)
        #expect(best.keys.map { $0[0] } == expected.map { String($0) })
        let last = try table.page(offset: Self.rows - 50, limit: 50)
        #expect(last.count == 50)
        #expect(last.keys.first?[0] == String(Self.rows - 49))
        let next = try table.page(limit: 50, after: ["1999900"])
        #expect(next.keys.map { $0[0]! } == (1_999_901...1_999_950).map(String.init))
        let found = try table.page(TableQuery(search: "item 1999999"), limit: 3)
        #expect(names(found.rows) == ["item 1999999"])
        #expect(try table.find("1234567").rows.record(0)["score"]?.number == Double(Self.score(1_234_567)))
    }

    /// The plan PostgreSQL would run for `sql`, one line per node.
    func plan(_ table: PostgresTable, _ sql: SQL) throws -> String {
        try table.connection.query(SQL("EXPLAIN ") + sql).column(0).compactMap { $0 }.joined(separator: "\n")
    }

    @Test func theNextPageContinuesAfterTheLastKeyByAnIndexScan() throws {
        let table = try big()
        let narrowed = TableQuery(filters: [try parseFilter("bucket < 500")])
        // Page 20,001 of 50 rows, continued from page 20,000's last key: the primary key's
        // index reads from that key on, nothing is skipped.
        let narrowedIDs = Array((1...Self.rows).lazy.filter { $0 % 1000 < 500 }.dropFirst(999_950).prefix(100)).map(String.init)
        let deep = try table.page(narrowed, offset: 999_950, limit: 50)
        let lastKey = try #require(deep.lastKey)
        #expect(lastKey == [narrowedIDs[49]])
        let keyset = try plan(table, table.pageSQL(narrowed, offset: 1_000_000, limit: 50, after: lastKey))
        #expect(keyset.contains("Index Scan using big_pkey") && !keyset.contains("Seq Scan"), "\(keyset)")
        // Continued by key or counted off, the page is the same: rows whose bucket is < 500.
        let next = try table.page(narrowed, offset: 1_000_000, limit: 50, after: lastKey)
        #expect(next.keys.map { $0[0] } == Array(narrowedIDs[50...]))
        #expect(try table.page(narrowed, offset: 1_000_000, limit: 50).keys == next.keys)
        // The last page: fewer rows (2,000,000 is the only one of the last 30 in a bucket < 500), then none.
        #expect(try table.page(narrowed, limit: 50, after: [String(Self.rows - 30)]).keys == [[String(Self.rows)]])
        #expect(try table.page(narrowed, limit: 50, after: [String(Self.rows)]).count == 0)
    }

    @Test func sortedPagesIgnoreTheKeyAndStayRightAtTiesAndAbsentValues() throws {
        let table = try big()
        // category: 45 values with 40,000 rows each, and 200,000 rows with none (last).
        let sorted = TableQuery(sort: [SortKey("category", descending: true)])
        #expect(try table.pageSQL(sorted, offset: 40_000, limit: 3, after: ["7"]) == table.pageSQL(sorted, offset: 40_000, limit: 3))
        let atTie = try table.page(sorted, offset: 39_998, limit: 4, after: ["7"])
        // Descending folded text: c9 first (40,000 rows: i % 50 == 9, ids ascending), then c8.
        let c9 = (1...Self.rows).lazy.filter { $0 % 50 == 9 && $0 % 10 != 0 }
        let c8 = (1...Self.rows).lazy.filter { $0 % 50 == 8 && $0 % 10 != 0 }
        #expect(atTie.keys.compactMap { $0[0] } == (Array(c9.suffix(2)) + Array(c8.prefix(2))).map(String.init))
        let absent = try table.page(sorted, offset: Self.rows - 200_001, limit: 3)
        #expect(absent.keys.compactMap { $0[0] } == [String(Self.rows - 49), "10", "20"], "the last of c1, then none")
    }

    @Test func aLongStatementStopsWithin200Milliseconds() throws {
        let table = try big()
        let fastest = try fastestOfThree {
            // A sort of every row by folded text: seconds of work.
            try secondsToStop { cancellation in
                _ = try table.page(TableQuery(sort: [SortKey("name", descending: true)]), offset: 1_000_000, limit: 10, cancellation: cancellation)
            }
        }
        #expect(fastest < 0.2)
        #expect(try table.count(TableQuery(filters: [parseFilter("id <= 10")])) == 10)
    }
}

/// A pg_trgm index on the name column serves search (through ILIKE).
@Suite struct TrigramSearchTests {
    @Test func searchUsesATrigramIndex() throws {
        let cluster = try TestCluster.shared()
        try cluster.once("indexed") {
            try cluster.execute("""
                CREATE TABLE indexed AS SELECT i AS id, 'Station ' || i || CASE WHEN i % 1000 = 0 THEN ' Zürich' ELSE '' END AS name
                FROM generate_series(1, 100000) AS i;
                ALTER TABLE indexed ADD PRIMARY KEY (id);
                CREATE INDEX indexed_name ON indexed USING gin (name gin_trgm_ops);
                ANALYZE indexed
                """)
        }
        let table = try PostgresTable.attach(name: "indexed", url: PostgresURL(cluster.url(table: "indexed")))
        #expect(table.schema.trigramIndexed == [1])
        let query = TableQuery(search: "zürich 5")
        let plan = try table.connection.query(SQL("EXPLAIN ") + table.pageSQL(query, limit: 50)).column(0).compactMap { $0 }.joined(separator: "\n")
        #expect(plan.contains("Bitmap Index Scan on indexed_name"), "\(plan)")
        let expected = (1...100_000).filter { $0 % 1000 == 0 && String($0).contains("5") }.map { "Station \($0) Zürich" }
        #expect(try allNames(table, query) == expected)
        #expect(try table.count(TableQuery(search: "ZÜRICH")) == 100)
    }
}
