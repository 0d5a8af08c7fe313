import Foundation
import PostgresCluster
import Testing

/// `histogram` on an attached table is answered by the database (statistics, then a count per
/// bin with `width_bucket`), and says exactly what memory says over the same records: the
/// bins, their labels and counts, the records without a value and what they held, the notes.
@Suite("PostgreSQL: histogram on a table bins as memory does")
struct PostgresHistogramTests {
    struct Script: Sendable, CustomTestStringConvertible {
        let dataset: String
        let commands: [String]
        var testDescription: String { dataset + ": " + commands.joined(separator: "; ") }
    }

    static let scripts: [Script] = [
        Script(dataset: "countries", commands: [
            "histogram population", "histogram population log", "histogram area 10", "histogram population / area 6",
            "histogram area log 8", "histogram log10(population / area) 8", "histogram gini",
            // A list of numbers (several values per record), a narrowed question, a limit.
            "histogram latlng 12", "filter region = Europe", "histogram population", "limit 20", "histogram area log",
            // Nothing to bin: text, and dates on a log scale are errors said alike.
            "histogram name",
        ]),
        Script(dataset: "species", commands: [
            "histogram created", "histogram created 6", "histogram edited", "histogram average_lifespan",
            "histogram average_height log", "histogram created log", "filter classification = mammal", "histogram average_height 4",
        ]),
        Script(dataset: "people", commands: ["histogram birth_year 9", "histogram mass", "histogram height log", "histogram year(created)"]),
    ]

    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ source: String, _ commands: [String], format: String) throws -> PipeResult {
        try PipeRun.run(["--no-rc", "--format", format], input: (["load d from \(source)", "use d"] + commands).joined(separator: "\n") + "\n",
                        environment: home.environment(), directory: home.root)
    }

    @Test("each histogram on the exported table is the one memory draws, word for word", arguments: scripts)
    func sameHistograms(_ script: Script) throws {
        let (file, url) = try Database.exported(script.dataset, as: "histogram_\(script.dataset)", in: home)
        for format in ["table", "json"] {
            let memory = try run(file, script.commands, format: format)
            let database = try run(url, script.commands, format: format)
            #expect(memory.stdout.contains("count"), "\(memory)")
            #expect(memory.stdout == database.stdout, "\(format)\nmemory:\n\(memory.stdout)\ndatabase:\n\(database.stdout)")
            #expect(memory.stderr == database.stderr, "\(format)\nmemory:\n\(memory.stderr)\ndatabase:\n\(database.stderr)")
            #expect(!database.stderr.contains("attached, not loaded"), "\(database)")
        }
    }

    @Test("histogram area 10 on a table counts every country with an area, in ten bins")
    func everyValueCounted() throws {
        let url = try Database.exported("countries", as: "histogram_countries_areas", in: home).url
        let result = try run(url, ["histogram area 10"], format: "json")
        let countries = ValueReadingTests.records("countries")
        let areas = countries.filter { $0["area"] is NSNumber }.count
        // Machine output stays data; what was left out is said on standard error.
        #expect(result.status == 0 && result.stderr == "note: \(areas) of \(countries.count) records have a value; \(countries.count - areas) have none\n",
                "\(result)")
        let bins = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(bins.count == 10)
        #expect(bins.compactMap { $0["count"] as? Int }.reduce(0, +) == areas, "\(bins)")
    }
}
