import AlmanacCore
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// Text read as a number in SQL (`QueryBuilder.number`, which sort's decision, describe and
/// filters run on every row) agrees with memory's `NumericText`, also for the texts its quick
/// first-character check turns away without a regular expression.
@Suite struct TextNumberSQLTests {
    static let texts = [
        "180", " 4 ", "\t-3", "+2.5", ".5", "1,000", "19BBY", "41.9bby", "4 ABY", "1e3", "-2E-2",
        "c7", "", " ", "abc", "item 7", "/5", "*5", "x1", "Ω", "\n5", "-", "+", ".", "1.", "٣",
    ]

    @Test func textReadsAsMemoryReadsIt() throws {
        let connection = try TestCluster.shared().admin
        for text in Self.texts {
            let sql = SQL("SELECT (") + QueryBuilder.number(of: SQL.value(text), kind: .text) + ")::float8::text"
            let read = try connection.query(sql).value(0, 0).flatMap(Double.init)
            #expect(read == NumericText.value(of: text), "\(text.debugDescription)")
        }
    }
}
