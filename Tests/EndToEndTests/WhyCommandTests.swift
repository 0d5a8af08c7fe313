import Foundation
import Testing

/// `why #N` names the conditions of the filters in force a record meets, with its values, and
/// for a list the elements that matched; a record named by id or name may fail some. Expected
/// texts are worked out here from the data file.
/// (Run with the suite of answers that explain themselves: the same pipes and data.)
extension ExplanationTests {
    static func languages(_ country: [String: Any]) -> [String] {
        (country["languages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    /// The two conditions' lines, the conditions padded to the longer one.
    static func lines(region: String, regionHolds: Bool, languages: [String]) -> [String] {
        let french = languages.contains("French")
        let list = languages.count == 1 ? languages[0]
            : (french ? "French" : "none matches") + " (\(french ? 1 : 0) of \(languages.count): \(languages.joined(separator: ", ")))"
        return ["  \(regionHolds ? "✓" : "✗") region = Europe           region \(region)",
                "  \(french ? "✓" : "✗") languages.name = French   languages.name \(list)"]
    }

    @Test("why #N: every condition met, with the record's values; the matching element of a list")
    func rowOfTheResults() throws {
        let kept = Self.countries.filter { $0["region"] as? String == "Europe" && Self.languages($0).contains("French") }
        #expect(kept.count >= 2)
        let second = kept[1]
        let name = second["name"] as? String ?? ""
        let result = try run(["use countries", "filter region = Europe and languages.name = French", "why #2"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let expected = ["#2 \(name) meets all 2 conditions:"] + Self.lines(region: "Europe", regionHolds: true, languages: Self.languages(second))
        #expect(result.stdout == expected.joined(separator: "\n") + "\n", "\(result)")
    }

    @Test("why NAME: a record the filters left out, and the condition it fails")
    func recordLeftOut() throws {
        let canada = try #require(Self.countries.first { $0["name"] as? String == "Canada" })
        let region = canada["region"] as? String ?? ""
        let result = try run(["use countries", "filter region = Europe", "filter languages.name = French", "why Canada"])
        let expected = ["Canada meets 1 of 2 conditions:"] + Self.lines(region: region, regionHolds: false, languages: Self.languages(canada))
        #expect(result.stdout == expected.joined(separator: "\n") + "\n", "\(result)")
        // Programs get one row per condition.
        let json = try run(["use countries", "filter region = Europe and languages.name = French", "why Canada"], arguments: ["--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]], "\(json)")
        #expect(rows.map { $0["condition"] as? String } == ["region = Europe", "languages.name = French"])
        #expect(rows.map { $0["holds"] as? Bool } == [false, true])
    }

    @Test("why over a link path shows the linked values, not none: one record, and a list of them")
    func linkPaths() throws {
        // France's borders followed to their countries' names, in the file's order.
        let byCode = Dictionary(uniqueKeysWithValues: Self.countries.compactMap { country in
            (country["alpha3Code"] as? String).map { ($0, country["name"] as? String ?? "") }
        })
        let france = try #require(Self.countries.first { $0["name"] as? String == "France" })
        let neighbours = (france["borders"] as? [String] ?? []).compactMap { byCode[$0] }
        #expect(neighbours.contains("Spain") && neighbours.count == 8)
        let borders = try run(["use countries", "filter borders.name = Spain", "why France"])
        #expect(borders.stdout == "France meets the condition:\n  ✓ borders.name = Spain   borders.name Spain (1 of 8: "
                + neighbours.joined(separator: ", ") + ")\n", "\(borders)")
        // Luke's homeworld is Tatooine (arid), Leia's Alderaan (temperate), as planets.json says.
        let luke = try run(["use people", "filter homeworld.climate ~ arid", "why \"Luke Skywalker\"", "why \"Leia Organa\""])
        #expect(luke.stdout.lines == ["Luke Skywalker meets the condition:", "  ✓ homeworld.climate ~ arid   homeworld.climate arid",
                                      "Leia Organa meets 0 of 1 conditions:", "  ✗ homeworld.climate ~ arid   homeworld.climate temperate"],
                "\(luke)")
    }

    @Test("why with no filter in force says so; a row past the results is an error")
    func nothingToExplain() throws {
        let result = try run(["use countries", "why #1"])
        #expect(result.stdout == "no filter in force: every record of the results is there (filter narrows them)\n", "\(result)")
        let past = try run(["use countries", "filter region = Polar", "why #9"])
        let polar = Self.countries.filter { $0["region"] as? String == "Polar" }.count
        #expect(past.stderr.contains("there is no row #9: the results have \(polar) row"), "\(past)")
    }
}
