import Foundation
import PostgresCluster
import Testing

/// An empty answer explains itself the same on an attached table as in memory (the database
/// asked for counts, values and the extreme value), and `why` reads a fetched row alike.
@Suite("PostgreSQL: explanations as in memory")
struct PostgresExplanationTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ lines: [String]) throws -> PipeResult {
        try PipeRun.run(["--no-rc"], input: lines.joined(separator: "\n") + "\n", environment: home.environment(), directory: home.root)
    }

    @Test("near values, the condition that emptied the answer, their values, why: memory and table alike")
    func sameExplanations() throws {
        let url = try Database.url("explain_countries")
        let file = home.root + "/countries.json"
        let exported = try run(["use countries", "export \(file)", "export \(url) --force"])
        #expect(exported.status == 0, "\(exported)")
        let script = ["use d", "filter region = Europa", "filter clear", "filter region = Europe and population > 1e9", "filter clear",
                      "filter region = Europe", "filter subregion = 'Eastern Asia'", "filter clear", "filter region = Atlantis", "filter clear",
                      "filter region = Europe and languages.name = French", "why #2", "why Canada"]
        let memory = try run(["load d from \(file)"] + script)
        let database = try run(["load d from \(url)"] + script)
        #expect(memory.status == 0 && database.status == 0, "\(memory)\n\(database)")
        #expect(memory.stderr == database.stderr, "memory:\n\(memory.stderr)\ndatabase:\n\(database.stderr)")
        #expect(memory.stdout == database.stdout, "memory:\n\(memory.stdout)\ndatabase:\n\(database.stdout)")
        let europe = ValueReadingTests.records("countries").filter { $0["region"] as? String == "Europe" }.count
        #expect(database.stderr.hasPrefix("no records — region has no value 'Europa'; did you mean Europe (\(europe))?\n"
                                          + "no records — population > 1,000,000,000 removed all \(europe) Europe records;"), "\(database)")
    }

    @Test("why names a record a step other than a filter left out (reach): memory and a keyed table alike")
    func whySaysWhatLeftItOut() throws {
        let url = try Database.url("explain_reach")
        let exported = try run(["use countries", "export \(url) --force"])
        #expect(exported.status == 0, "\(exported)")
        try Database.cluster().execute(#"ALTER TABLE explain_reach ADD PRIMARY KEY ("alpha3Code")"#)
        let austria = try #require(ValueReadingTests.records("countries").first { $0["alpha3Code"] as? String == "AUT" })
        let borders = austria["borders"] as? [String] ?? []
        #expect(!borders.contains("ESP") && borders.contains("DEU"), "Spain is no neighbour of Austria, Germany is")
        // reach answers with the bundled countries in memory (a file of them is a generic dataset).
        let script = ["reach Austria 1", "why Spain", "why Germany", "filter region = Europe", "why Spain", "why Germany"]
        let memory = try run(["use countries"] + script)
        let database = try run(["load d from \(url)", "use d"] + script)
        let leftOut = "Spain is not among the results: a search, near, within, outside, reach or limit left it out"
        #expect(memory.stdout.lines == [leftOut, "no filter in force: every record of the results is there (filter narrows them)",
                                        "Spain meets the condition:", "  ✓ region = Europe   region Europe", "but " + leftOut,
                                        "Germany meets the condition:", "  ✓ region = Europe   region Europe"], "\(memory)")
        #expect(memory.status == 0 && memory.stderr.isEmpty, "\(memory)")
        #expect(database.stdout == memory.stdout && database.status == 0 && database.stderr.isEmpty, "\(database)")
    }

    @Test("why on a table without a key names a record near, within or reach left out, as memory does")
    func whyWithoutKey() throws {
        let url = try Database.url("explain_bare")
        let exported = try run(["use countries", "export \(try Database.url("explain_bare_source")) --force"])
        #expect(exported.status == 0, "\(exported)")
        // The rows as exported, without the key the export declares.
        try Database.cluster().execute("DROP TABLE IF EXISTS explain_bare; CREATE TABLE explain_bare AS SELECT * FROM explain_bare_source")
        #expect(try Database.column("SELECT count(*) FROM pg_constraint WHERE conrelid = 'explain_bare'::regclass") == ["0"])
        // Within 300 km of Austria: Slovenia (176 km), not Germany (Berlin's latlng, 500 km off)
        // nor Austria itself; Austria's outline holds Austria, not Italy; Spain borders no Austria.
        let script = ["near Austria within 300 km", "why Austria", "why Slovenia", "why Germany", "within Austria", "why Italy",
                      "why Austria", "reach Austria 1", "why Spain", "why Germany"]
        let memory = try run(["use countries"] + script)
        let database = try run(["load d from \(url)", "use d"] + script)
        let there = "no filter in force: every record of the results is there (filter narrows them)"
        func leftOut(_ name: String) -> String { "\(name) is not among the results: a search, near, within, outside, reach or limit left it out" }
        #expect(memory.stdout.lines == [leftOut("Austria"), there, leftOut("Germany"), leftOut("Italy"), there, leftOut("Spain"), there],
                "\(memory)")
        #expect(memory.status == 0 && memory.stderr.isEmpty, "\(memory)")
        #expect(database.stdout == memory.stdout && database.status == 0 && database.stderr.isEmpty, "\(database)")
    }
}
