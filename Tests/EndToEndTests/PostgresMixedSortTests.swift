import Foundation
import Testing

extension PostgresDifferentialTests {
    /// Numbers and words in one field, under four fifths numbers: in a jsonb column (`score`:
    /// JSON numbers and strings) and a text column (`word`: the same as strings).
    static let mixedRecords = """
        [{"name": "r1", "score": 10, "word": "10"},
         {"name": "r2", "score": "abc", "word": "abc"},
         {"name": "r3", "score": 7.5, "word": "7.5"},
         {"name": "r4", "score": "12", "word": "12"},
         {"name": "r5", "score": null, "word": null},
         {"name": "r6", "score": "Zed", "word": "Zed"},
         {"name": "r7", "score": "n/a", "word": "n/a"}]
        """

    /// By hand: the numbers (text that reads as one too) by value, then the words, in either
    /// direction; no value (null, n/a) last, in the records' order.
    static let mixedSorts: [(command: String, names: [String])] = [
        ("sort score", ["r3", "r1", "r4", "r2", "r6", "r5", "r7"]),
        ("sort score desc", ["r4", "r1", "r3", "r6", "r2", "r5", "r7"]),
        ("sort word", ["r3", "r1", "r4", "r2", "r6", "r5", "r7"]),
        ("sort word desc", ["r4", "r1", "r3", "r6", "r2", "r5", "r7"]),
    ]

    @Test("numbers and words in one field sort numbers by value before words either way, alike in memory and on a table")
    func mixedNumbersAndWords() throws {
        let file = try home.write(Self.mixedRecords, to: "mixed.json")
        try sameRows(file: file, table: try exportedTable(file, as: "differential_mixed"), Self.mixedSorts)
    }
}
