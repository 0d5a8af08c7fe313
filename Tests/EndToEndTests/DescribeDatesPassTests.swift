import Foundation
import PostgresCluster
import Testing

/// A table's describe reads every field in one pass; a text field that turns out to be
/// (nearly) all ISO dates is read once more for its statistics over the dates — alone, not
/// with every other field again.
@Suite("A table's describe reads again only its date fields")
struct DescribeDatesPassTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        try Database.cluster().once("dated") {
            try Database.cluster().execute("""
                CREATE TABLE dated (id integer PRIMARY KEY, name text, at text, score double precision);
                INSERT INTO dated VALUES (1, 'a', '2024-01-05', 1.5), (2, 'b', '2024-03-01T10:00:00Z', 2.5), (3, 'c', '2023-12-31', 4)
                """)
        }
    }

    @Test("describe: one pass over the four fields, then one over `at` alone")
    func secondPassReadsOnlyTheDates() throws {
        let (result, ran) = try LoggedStatements.run(["describe"], table: "dated", in: home)
        #expect(result.status == 0, "\(result)")
        // `at` described as dates, from 2023-12-31 to 2024-03-01.
        let at = result.stdout.split(separator: "\n").first { $0.hasPrefix("at ") }.map(String.init) ?? ""
        #expect(at.contains("date") && at.contains("2023-12-31") && at.contains("2024-03-01"), "\(result.stdout)")
        // The one-pass statements: each field is a part of a UNION ALL, its position first.
        let passes = ran.filter { $0.hasPrefix("(SELECT ") && $0.contains("UNION ALL") || $0.hasPrefix("(SELECT 2, ") }
        #expect(passes.count == 2, "\(ran)")
        #expect(passes.first?.components(separatedBy: " UNION ALL ").count == 4, "\(passes)")
        // Before, the second pass read all four fields again.
        #expect(passes.last?.hasPrefix("(SELECT 2, ") == true && passes.last?.contains("UNION ALL") == false, "\(passes)")
    }
}
