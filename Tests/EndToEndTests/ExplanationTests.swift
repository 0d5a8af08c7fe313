import Foundation
import Testing

/// An empty answer says why on standard error (the answer itself stays empty for scripts): a
/// value nothing has but one like it does, or the condition that removed the last records and
/// what their values were; a rare other spelling of a value that would add records is named.
/// Expected texts are worked out here from the data files.
@Suite("Answers that explain themselves")
struct ExplanationTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ lines: [String], arguments: [String] = []) throws -> PipeResult {
        try PipeRun.run(["--no-rc"] + arguments, input: lines.joined(separator: "\n") + "\n", environment: home.environment(),
                        directory: home.root)
    }

    static var countries: [[String: Any]] { ValueReadingTests.records("countries") }

    static func count(_ records: [[String: Any]], _ field: String, _ value: String) -> Int {
        records.filter { $0[field] as? String == value }.count
    }

    static func grouped(_ number: Int) -> String {
        number.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    }

    @Test("a value nothing has, one edit from one that is: did you mean it, with its count")
    func nearValue() throws {
        let europe = Self.count(Self.countries, "region", "Europe")
        let result = try run(["use countries", "filter region = Europa"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "no records\n", "the answer is unchanged: \(result)")
        #expect(result.stderr == "no records — region has no value 'Europa'; did you mean Europe (\(europe))?\n", "\(result)")
        let json = try run(["use countries", "filter region = Europa"], arguments: ["--format", "json"])
        #expect(json.stdout == "[]\n" && json.stderr.hasPrefix("no records — region has no value 'Europa'"), "\(json)")
        // A beginning, a misspelt multi-word value, an element of a list.
        #expect(try run(["use countries", "filter region = Eur"]).stderr.contains("did you mean Europe (\(europe))?"))
        let western = Self.count(Self.countries, "subregion", "Western Europe")
        #expect(try run(["use countries", "filter region = Europe and subregion = 'Westrn Europe'"]).stderr
            == "no records — subregion has no value 'Westrn Europe'; did you mean Western Europe (\(western))?\n")
        let euro = Self.countries.filter { ($0["currencies"] as? [[String: Any]] ?? []).contains { $0["code"] as? String == "EUR" } }.count
        #expect(try run(["use countries", "filter currencies.code = EUX"]).stderr
            == "no records — currencies.code has no value 'EUX'; did you mean EUR (\(euro))?\n")
    }

    @Test("a conjunction that empties the answer names the condition and the largest value it saw")
    func removedAll() throws {
        let europe = Self.countries.filter { $0["region"] as? String == "Europe" }
        let largest = try #require(europe.max { ($0["population"] as? Int ?? 0) < ($1["population"] as? Int ?? 0) })
        let expected = "no records — population > 1,000,000,000 removed all \(europe.count) Europe records; the largest population "
            + "among them is \(Self.grouped(largest["population"] as? Int ?? 0)) (\(largest["name"] as? String ?? ""))\n"
        let result = try run(["use countries", "filter region = Europe and population > 1e9"])
        #expect(result.stdout == "no records\n" && result.stderr == expected, "\(result)")
        // The same when the first condition was a filter of its own.
        #expect(try run(["use countries", "filter region = Europe", "filter population > 1e9"]).stderr == expected)
        // `<`: the smallest.
        let smallest = try #require(Self.countries.min { ($0["population"] as? Int ?? 0) < ($1["population"] as? Int ?? 0) })
        #expect(try run(["use countries", "filter population < 0"]).stderr
            == "no records — population < 0 removed all \(Self.countries.count) records; the smallest population among them is "
            + "\(smallest["population"] as? Int ?? -1) (\(smallest["name"] as? String ?? ""))\n")
    }

    @Test("a value that is there, but not among the records left: their values, most first")
    func theirValues() throws {
        let europe = Self.countries.filter { $0["region"] as? String == "Europe" }
        let subregions = ValueTally.listed("subregion", of: europe)
        #expect(subregions.count <= 6)
        let listed = subregions.joined(separator: ", ")
        #expect(try run(["use countries", "filter region = Europe and subregion = 'Eastern Asia'"]).stderr
            == "no records — subregion = Eastern Asia removed all \(europe.count) Europe records; their subregion: \(listed)\n")
        let regions = ValueTally.listed("region", of: Self.countries)
        #expect(try run(["use countries", "filter region = Atlantis"]).stderr
            == "no records — region has no value 'Atlantis'; its values: \(regions.joined(separator: ", "))\n")
    }

    @Test("the README's examples are what almanac says")
    func readmeExamples() throws {
        let readme = try String(contentsOfFile: PackageRoot.path + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "## Answers that explain themselves\n"))
        let section = readme[start.upperBound...].prefix { _ in true }.components(separatedBy: "\n## ")[0]
        let lines = section.components(separatedBy: "\n")
        var checked = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("    countries> ") && index + 1 < lines.count {
            let command = String(line.dropFirst("    countries> ".count))
            let result = try run(["use countries", command])
            #expect(result.stderr == lines[index + 1].dropFirst(4) + "\n", "\(command): \(result)")
            checked += 1
        }
        #expect(checked == 3)
    }

    @Test("`classification = mammal` has records, and names the rare 'mammals' that would add more")
    func alsoTheOtherForm() throws {
        let species = ValueReadingTests.records("species")
        let mammals = species.filter { $0["classification"] as? String == "mammals" }
        #expect(mammals.compactMap { $0["name"] as? String } == ["Twi'lek"])
        let mammal = Self.count(species, "classification", "mammal")
        let result = try run(["use species", "filter classification = mammal", "count"])
        #expect(result.stdout == "\(mammal)\n", "\(result)")
        #expect(result.stderr == "also 'mammals' (\(mammals.count))\n", "\(result)")
        // Not the other way round: 'mammal' is no rare spelling of 'mammals'.
        let other = try run(["use species", "filter classification = mammals", "count"])
        #expect(other.stdout == "\(mammals.count)\n" && other.stderr.isEmpty, "\(other)")
        // Nor when the rest of the condition leaves the Twi'lek out (its lifespan is unknown).
        let lifespan = try run(["use species", "filter classification = mammal and average_lifespan > 100", "count"])
        #expect(lifespan.stderr.isEmpty, "\(lifespan)")
    }
}
