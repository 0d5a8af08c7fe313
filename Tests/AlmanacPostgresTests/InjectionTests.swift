import AlmanacCore
import Foundation
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// Text a user types travels as parameters, field names resolve against the catalog, JSON keys
/// are quoted inside a jsonpath parameter: SQL in any of them matches nothing, changes
/// nothing, and names nothing.
@Suite struct InjectionTests {
    static let hostile = [
        "x' OR '1'='1", "x'; DROP TABLE kinds; --", "\\'; SELECT pg_sleep(5); --", "$1", "\u{1}", "%", "_", "\"", "' OR 1=1 --",
        "\") OR true --", "x\" ? (@ == @) || \"",
    ]

    func kinds() throws -> PostgresTable {
        let cluster = try TestCluster.shared()
        try cluster.kindsTable()
        return try PostgresTable.attach(name: "kinds", url: PostgresURL(cluster.url(table: "kinds")))
    }

    @Test func hostileValuesMatchOnlyThemselvesAndChangeNothing() throws {
        let table = try kinds()
        let before = try fingerprint()
        for value in Self.hostile {
            for op in FilterExpression.Operator.allCases where op != .notEqual && op != .notContains {
                let query = TableQuery(filters: [.comparison(field: "name", op: op, value: value)])
                let found = try allNames(table, query)
                if op == .equal {
                    // Only the row whose name is that very text.
                    #expect(found == (value == "x' OR '1'='1" ? ["x' OR '1'='1"] : []), "\(value)")
                }
                if op == .contains { #expect(found.allSatisfy { $0 == "x' OR '1'='1" }, "\(value)") }
            }
            // Search also looks at the other names: one tag holds a quote.
            #expect(try allNames(table, TableQuery(search: value)).allSatisfy { $0 == "x' OR '1'='1" || value == "\"" && $0 == "Zürich" }, "\(value)")
            #expect(try table.find(value).total <= 1)
            #expect(try table.count(TableQuery(filters: [.comparison(field: "info.address.city", op: .equal, value: value)])) == 0)
            #expect(try table.count(TableQuery(filters: [.comparison(field: "tags", op: .contains, value: value)])) == (value == "\"" ? 1 : 0))
            _ = table.completeNames(value)
            _ = table.completeValues(of: "city", prefix: value)
        }
        #expect(try fingerprint() == before)
    }

    @Test func hostileFieldNamesAreUnknownFields() throws {
        let table = try kinds()
        for field in ["name'; DROP TABLE kinds; --", "name\" OR true --", "t.name", "ctid", "(name)"] {
            #expect(throws: QueryError.self, "\(field)") {
                try table.count(TableQuery(filters: [.comparison(field: field, op: .equal, value: "x")]))
            }
            #expect(throws: QueryError.self, "\(field)") { try table.page(TableQuery(sort: [SortKey(field)]), limit: 1) }
        }
        // Inside a JSON column a key is any text, quoted in the jsonpath: it names a key, never syntax.
        for key in Self.hostile {
            #expect(try table.count(TableQuery(filters: [.comparison(field: "info." + key, op: .equal, value: "x")])) == 0, "\(key)")
            #expect(try table.count(TableQuery(filters: [.comparison(field: "info." + key, op: .notEqual, value: "x")])) == 5, "\(key)")
        }
        #expect(FieldReference.jsonPath(["a\"b", "c\\d", "e\u{1}"]) == #"lax $."a\"b"."c\\d"."e\u0001""#)
    }

    @Test func aHostileTableNameIsATableThatDoesNotExist() throws {
        let cluster = try TestCluster.shared()
        try cluster.kindsTable()
        for name in ["kinds; DROP TABLE kinds", "kinds%22%3B%20DROP%20TABLE%20kinds%3B%20--", "pg_sleep(5)"] {
            #expect(throws: PostgresError.self) { try PostgresTable.attach(name: "x", url: PostgresURL(cluster.url(table: name))) }
        }
        #expect(try kinds().count() == 5)
    }

    /// Every row of `kinds`, and its columns: what a statement that changed something would change.
    private func fingerprint() throws -> String {
        try TestCluster.shared().admin.query("""
            SELECT md5(string_agg(row_to_json(k)::text, ',' ORDER BY id)) || ':' ||
                (SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'kinds'::regclass AND attnum > 0)
            FROM kinds AS k
            """).scalar ?? ""
    }
}

/// U+0001 marks a parameter in a statement being built; the program's own text holding it (a
/// quoted column named with it) stays itself (issue 31: such a column blocked attaching).
@Suite struct MarkerTests {
    @Test func aLiteralMarkerIsNotAParameter() {
        var sql = SQL("SELECT \"a\u{1}b\" FROM t WHERE x = ")
        sql.bind("v")
        sql.append(" AND \"\u{1}\" = ")
        sql.bind("w", as: "int")
        #expect(sql.text == "SELECT \"a\u{1}b\" FROM t WHERE x = $1::text AND \"\u{1}\" = $2::int")
        #expect(sql.parameters == ["v", "w"])
    }
}
