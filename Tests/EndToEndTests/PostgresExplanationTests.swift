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

    /// Countries exported to a file and to `table`; `script` (after `load d from …`) run on each.
    func onFileAndTable(_ table: String, _ scripts: [[String]]) throws -> [(memory: PipeResult, database: PipeResult)] {
        let url = try Database.url(table)
        let file = home.root + "/\(table).json"
        let exported = try run(["use countries", "export \(file)", "export \(url) --force"])
        #expect(exported.status == 0, "\(exported)")
        return try scripts.map { script in (try run(["load d from \(file)"] + script), try run(["load d from \(url)"] + script)) }
    }

    @Test("near values, the condition that emptied the answer, their values, why: memory and table alike")
    func sameExplanations() throws {
        let script = ["use d", "filter region = Europa", "filter clear", "filter region = Europe and population > 1e9", "filter clear",
                      "filter region = Europe", "filter subregion = 'Eastern Asia'", "filter clear", "filter region = Atlantis", "filter clear",
                      "filter region = Europe and languages.name = French", "why #2", "why Canada"]
        let (memory, database) = try onFileAndTable("explain_countries", [script])[0]
        #expect(memory.status == 0 && database.status == 0, "\(memory)\n\(database)")
        #expect(memory.stderr == database.stderr, "memory:\n\(memory.stderr)\ndatabase:\n\(database.stderr)")
        #expect(memory.stdout == database.stdout, "memory:\n\(memory.stdout)\ndatabase:\n\(database.stdout)")
        let europe = ValueReadingTests.records("countries").filter { $0["region"] as? String == "Europe" }.count
        #expect(database.stderr.hasPrefix("no records — region has no value 'Europa'; did you mean Europe (\(europe))?\n"
                                          + "no records — population > 1,000,000,000 removed all \(europe) Europe records;"), "\(database)")
    }

    @Test("why shows what a computed condition compares, computed for the record: memory and table alike")
    func whyShowsComputedValues() throws {
        let runs = try onFileAndTable("why_computed", [
            ["use d", "filter population / area > 1000 and count(borders) >= 2 and upper(capital) ~ VIE", "why Austria"],
            ["use d", "filter population / area > 100000"],
        ])
        let (memory, database) = runs[0]
        #expect(memory.stdout == database.stdout, "memory:\n\(memory.stdout)\ndatabase:\n\(database.stdout)")
        // Austria in countries.json, read here.
        let austria = try #require(ValueReadingTests.records("countries").first { $0["name"] as? String == "Austria" })
        let density = try #require(austria["population"] as? Double) / (try #require(austria["area"] as? Double))
        let borders = (austria["borders"] as? [Any])?.count ?? 0
        #expect(database.stdout.contains("population / area \(String(format: "%.2f", density))\n"), "\(database)")
        #expect(database.stdout.contains("count(borders) >= 2        count(borders) \(borders)\n"), "\(database)")
        #expect(database.stdout.contains("upper(capital) VIENNA\n"), "\(database)")

        // A computed condition that empties the answer names the extreme of its computed side.
        let (memoryEmpty, databaseEmpty) = runs[1]
        #expect(memoryEmpty.stderr == databaseEmpty.stderr, "memory:\n\(memoryEmpty.stderr)\ndatabase:\n\(databaseEmpty.stderr)")
        let densest = ValueReadingTests.records("countries").compactMap { record -> (String, Double)? in
            guard let population = record["population"] as? Double, let area = record["area"] as? Double, area > 0 else { return nil }
            return (record["name"] as? String ?? "", population / area)
        }.max { $0.1 < $1.1 }
        let (name, largest) = try #require(densest)
        let shown = String(format: "%.2f", largest).replacingOccurrences(of: #"^(\d+)(\d{3})\."#, with: "$1,$2.", options: .regularExpression)
        #expect(databaseEmpty.stderr == "no records — population / area > 100000 removed all 250 records; "
                + "the largest population / area among them is \(shown) (\(name))\n", "\(databaseEmpty)")
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

    @Test("a table of stations names its rows by stationTitle, as the stations in memory do: show, why")
    func stationsNamedByTitle() throws {
        let url = try Database.url("explain_stations")
        let exported = try run(["use stations", "export \(url) --force"])
        #expect(exported.status == 0, "\(exported)")
        // 9864 is in Vienna with its neighbours: near leaves the station itself out.
        let title = try #require(DatasetCompletionTests.stations[9864]?.title)
        #expect(title == "Stadion Center, Engerthstr. 242")
        let script = ["show 9864", "near 9864 within 250 km", "why 9864"]
        let memory = try run(["use stations"] + script)
        let database = try run(["load d from \(url)", "use d"] + script)
        let leftOut = "\(title) is not among the results: a search, near, within, outside, reach or limit left it out"
        for answer in [memory, database] {
            #expect(answer.stdout.lines.first == title && answer.stdout.lines.last == leftOut, "\(answer)")
            #expect(answer.status == 0 && answer.stderr.isEmpty, "\(answer)")
        }
    }

    @Test("why NAME reads near's distance for the row on a table, keyed or not, as memory does")
    func whyNameReadsTheDistance() throws {
        let keyed = try Database.url("why_distance")
        let exported = try run(["use countries", "export \(keyed) --force"])
        #expect(exported.status == 0, "\(exported)")
        try Database.cluster().execute("DROP TABLE IF EXISTS why_distance_bare; CREATE TABLE why_distance_bare AS SELECT * FROM why_distance")
        let countries = ValueReadingTests.records("countries")
        func latlng(_ name: String) throws -> [Double] {
            try #require(countries.first { $0["name"] as? String == name }?["latlng"] as? [Double])
        }
        func km(_ name: String) throws -> String {
            String(format: "%.1f", GeographyCommandTests.haversine(try latlng("Norway"), try latlng(name)))
        }
        // Denmark is kept (300 < 667 km), Sweden filtered out (261 km), Germany beyond 800 km.
        let script = ["near Norway within 800 km", "filter distance > 300", "why Denmark", "why Sweden", "why Germany"]
        let expected = ["Denmark meets the condition:", "  ✓ distance > 300   distance \(try km("Denmark"))",
                        "Sweden meets 0 of 1 conditions:", "  ✗ distance > 300   distance \(try km("Sweden"))",
                        "Germany meets 0 of 1 conditions:", "  ✗ distance > 300   distance none"]
        #expect(expected[1] == "  ✓ distance > 300   distance 667.2")
        let memory = try run(["use countries"] + script)
        #expect(memory.stdout.lines == expected && memory.status == 0 && memory.stderr.isEmpty, "\(memory)")
        for table in ["why_distance", "why_distance_bare"] {
            let database = try run(["load d from \(try Database.url(table))", "use d"] + script)
            #expect(database.stdout == memory.stdout && database.status == 0 && database.stderr.isEmpty, "\(table): \(database)")
        }
    }
}
