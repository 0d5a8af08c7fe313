import Foundation
import PostgresCluster
import Testing

/// describe's most common values, equal counts ordered by their text (byte order, as a
/// table's `ORDER BY n DESC, v COLLATE "C"` orders them): memory listed ties in the order it
/// met them, so the five it named differed from a table's.
@Suite("describe orders equal counts by value, alike in memory and on a table")
struct DescribeTiesTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("the species' languages, each spoken once: the first five by their bytes")
    func languages() throws {
        let species = try JSONSerialization.jsonObject(with: Data(try DataFolder.realContents("species"))) as! [[String: Any]]
        let none: Set<String> = ["", "n/a", "unknown", "none", "(none)"]
        var counts: [String: Int] = [:]
        for record in species {
            if let language = record["language"] as? String, !none.contains(language.lowercased()) { counts[language, default: 0] += 1 }
        }
        let top = counts.sorted { $0.value != $1.value ? $0.value > $1.value : Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .prefix(5).map { #"{"value":"\#($0.key)","count":\#($0.value)}"# }
        #expect(top.first == #"{"value":"Aleena","count":1}"#)
        let output = try Database.sameAnswers("species", table: "describe_ties", in: home, format: "json", ["describe language"])
        #expect(output.contains(#""common":["# + top.joined(separator: ",") + "]"), "\(output)")
    }
}
