import AlmanacCore
import Foundation
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// float8, real and integer columns are read by expressions as they are, not through numeric
/// (which kept 15 significant digits): a table computes what memory computes.
@Suite struct BinaryNumberTests {
    func digits() throws -> PostgresTable {
        let cluster = try TestCluster.shared()
        try cluster.once("digits") {
            // 0.1 + 0.2 is 0.30000000000000004 in a double; 2^53 + 1 is past a double.
            try cluster.execute("""
                CREATE TABLE digits (name text, x double precision, n bigint);
                INSERT INTO digits VALUES ('sum', 0.1::float8 + 0.2::float8, 9007199254740993), ('three', 0.3, 3)
                """)
        }
        return try PostgresTable.attach(name: "digits", url: PostgresURL(cluster.url(table: "digits")))
    }

    @Test func aDoubleKeepsItsSeventeenthDigitInAnExpression() throws {
        let table = try digits()
        // Through numeric, 0.30000000000000004 was 0.3 and no row was greater.
        #expect(try allNames(table, TableQuery(filters: [parseFilter("x + 0 > 0.3")])) == ["sum"])
        #expect(try allNames(table, TableQuery(filters: [parseFilter("x * 1 = 0.30000000000000004")])) == ["sum"])
    }

    @Test func anIntegerIsReadAsTheNearestDouble() throws {
        // 9007199254740993 rounds to 9007199254740992 (half to even), as a double in memory holds it.
        #expect(try allNames(digits(), TableQuery(filters: [parseFilter("n + 0 = 9007199254740992")])) == ["sum"])
    }

    @Test func theSQLReadsADoubleColumnWithoutACast() throws {
        let sql = try digits().countSQL(TableQuery(filters: [parseFilter("x + 0 > 0.3")])).text
        #expect(!sql.contains("numeric"), "\(sql)")
    }
}
