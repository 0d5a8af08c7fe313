import Foundation
import PostgresCluster
import Testing

/// `outside` on an attached table runs in the database (per country name of the table, its
/// outline's edges bound as arrays: within's ray cast negated, and the distance to the nearest
/// edge's arc) and answers as `outside` over the same records in memory: the same rows, in
/// the same order, with the same distances.
@Suite("PostgreSQL: outside in SQL answers as in memory")
struct PostgresOutsideTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// Each step of outside on a table measures the outside rows against their outline's edges
    /// (a second or two on a loaded machine): the whole script gets a minute.
    static let timeout: Duration = .seconds(60)

    func run(_ lines: [String], format: String = "csv") throws -> PipeResult {
        try PipeRun.run(["--no-rc", "--format", format], input: lines.joined(separator: "\n") + "\n",
                        environment: home.environment(), directory: home.root, timeout: Self.timeout)
    }

    @Test("stations outside their own country: memory and table alike, distances included")
    func stations() throws {
        let script = ["set pagesize 5", "columns stationId, distance", "outside", "count", "page", "page 18", "sort distance",
                      "page", "filter distance > 100", "count", "back", "back", "group countryTitle", "set pagesize auto", "outside"]
        let output = try Database.sameAnswers("stations", table: "outside_stations", in: home, timeout: Self.timeout, script)
        // Counted independently (python3 over the file's 4,037 distinct stations: each
        // countryTitle by the countries' Russian translation, its outline in world.geojson by
        // alpha3Code else name, an even-odd ray cast per polygon, the distance to the nearest
        // edge's great-circle arc): 89 outside, 66 of them in Russia, 18 farther than 100 km,
        // farthest 259.6 km (7493), their distances summing to 4,107.3 km.
        #expect(output.contains("count\n89\n") && output.contains("count\n18\n") && output.contains("Россия,66,74.2"), "\(output)")
        #expect(output.contains("stationId,distance\n7493,259.6\n"), "\(output)")
        let last = output.components(separatedBy: "stationId,distance\n").last ?? ""
        let rows = last.split(separator: "\n").map { $0.split(separator: ",") }
        let tenths = rows.compactMap { $0.count == 2 ? Double($0[1]).map { Int(($0 * 10).rounded()) } : nil }
        #expect(rows.count == 89 && tenths.reduce(0, +) == 41_073, "\(last)")
    }

    @Test("an empty outside says how many records it judged and how many it could not: memory and table alike")
    func emptyOutsideSaysWhatItJudged() throws {
        // Two points inside Austria's outline, one naming no known country, one without coordinates.
        let file = home.root + "/inside.json"
        try Data(#"""
            [{"name": "Vienna", "country": "Austria", "lat": 48.21, "lon": 16.37},
             {"name": "Graz", "country": "Austria", "lat": 47.07, "lon": 15.44},
             {"name": "Atlantis", "country": "Atlantis", "lat": 0, "lon": -30},
             {"name": "Nowhere", "country": "Austria"}]
            """#.utf8).write(to: URL(fileURLWithPath: file))
        let url = try Database.url("outside_inside")
        #expect(try run(["load d from \(file)", "use d", "export \(url) --force"]).status == 0)
        let script = ["use d", "outside", "count"]
        let memory = try run(["load d from \(file)"] + script)
        let database = try run(["load d from \(url)"] + script)
        #expect(memory.stdout == "count\n0\n" && memory.status == 0, "\(memory)")
        #expect(memory.stderr == "no records — all 2 records judged lie inside their own country's outline (by country); "
                + "1 more with coordinates names no country with an outline\n", "\(memory)")
        #expect(database.stdout == memory.stdout && database.stderr == memory.stderr && database.status == 0, "\(database)")
    }

    @Test("a table without a country field says which fields outside reads")
    func noCountryField() throws {
        let url = try Database.url("outside_species")
        #expect(try run(["use species", "export \(url) --force"]).status == 0)
        let result = try run(["load d from \(url)", "use d", "outside"])
        #expect(result.status != 0 && result.stderr.contains("named by a countryTitle or country field, and d has neither"), "\(result)")
    }
}
