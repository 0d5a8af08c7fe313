import AlmanacCore
import Foundation
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// Text folded in SQL must be text folded as almanac folds it in memory, or a filter or sort
/// answers differently in the database.
@Suite struct FoldingTests {
    /// Every character of Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, Latin Extended
    /// Additional, Greek Extended, punctuation, kana, Hangul and fullwidth forms, folded by the
    /// server and by Foundation: equal, but for the few listed (ligatures and spacing marks
    /// Foundation folds and PostgreSQL has no function for).
    @Test func theServersFoldingIsFoundations() throws {
        let connection = try TestCluster.shared().connect()
        let folding = try TextFolding.detect(on: connection)
        #expect(folding.method == .unicode)
        let ranges = [32...767, 880...1791, 7680...8591, 12352...12543, 44032...44200, 65280...65519]
        var sql = SQL("SELECT x, ") + folding.fold(SQL("x")) + " FROM (SELECT chr(i) AS x FROM ("
        sql.append(SQL.joined(ranges.map { SQL("SELECT generate_series(\($0.lowerBound), \($0.upperBound)) AS i") }, separator: " UNION ALL "))
        sql.append(") AS numbers UNION ALL SELECT 'Cafe\u{301} Ågot Йошкар-Ола ẞtraße ΣΟΦΟΣ Ærø') AS characters")
        let result = try connection.query(sql)
        let known: Set<String> = ["և", "ẚ", "῍", "῎", "῏", "῝", "῞", "῟"]
        var differences: [String] = []
        for row in 0..<result.rowCount {
            let text = result.value(row, 0)!
            if result.value(row, 1) != Folding.fold(text), !known.contains(text) {
                differences.append("\(text) → \(Folding.fold(text)) in memory, \(result.value(row, 1) ?? "NULL") in SQL")
            }
        }
        #expect(result.rowCount > 3000)
        #expect(differences.isEmpty, "\(differences.joined(separator: "; "))")
    }

    @Test func withoutNormalizeOnlyCaseIsIgnored() {
        #expect(TextFolding(.caseOnly).fold(SQL("t.x")).text == "lower(t.x)")
    }
}
