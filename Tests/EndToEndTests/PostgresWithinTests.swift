import Foundation
import PostgresCluster
import Testing

/// `within COUNTRY` on an attached table runs in the database (the outline's boxes, then the
/// even–odd ray cast over its edges bound as arrays) and answers as `within` over the same
/// records in memory: the same counts and pages, a multi-polygon and a hole included.
@Suite("PostgreSQL: within in SQL answers as in memory")
struct PostgresWithinTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ lines: [String], format: String = "csv") throws -> PipeResult {
        try PipeRun.run(["--no-rc", "--format", format], input: lines.joined(separator: "\n") + "\n",
                        environment: home.environment(), directory: home.root)
    }

    /// The same script on the file and on the table exported from it: the same output.
    func sameAnswers(dataset: String, table: String, _ script: [String]) throws -> String {
        let url = try Database.url(table)
        let file = home.root + "/\(table).json"
        let exported = try run(["use \(dataset)", "export \(file)", "export \(url) --force"])
        #expect(exported.status == 0, "\(exported)")
        let memory = try run(["load d from \(file)", "use d"] + script)
        let database = try run(["load d from \(url)", "use d"] + script)
        #expect(memory.status == 0 && memory.stderr.isEmpty, "\(memory)")
        #expect(database.status == 0 && database.stderr.isEmpty, "\(database)")
        #expect(memory.stdout == database.stdout, "memory:\n\(memory.stdout)\ndatabase:\n\(database.stdout)")
        return database.stdout
    }

    @Test("stations within Austria, Russia and Chile: memory and table alike")
    func stations() throws {
        let output = try sameAnswers(dataset: "stations", table: "within_stations", [
            "set pagesize 10", "columns stationId, stationTitle",
            "within Austria", "count", "page",
            "within \"Russian Federation\"", "count", "page", "page 40", "group countryTitle", "filter stationId < 1000", "count",
            "within Chile", "count",
        ])
        // Also counted independently: an even-odd ray cast per polygon of world.geojson over the
        // 4,037 distinct stations' points (python3) gives 7, 3,071 and 0.
        #expect(output.contains("count\n7\n"), "\(output)")
        #expect(output.contains("count\n3071\n"), "\(output)")
        #expect(output.contains("count\n0\n"), "\(output)")
        #expect(output.contains("9864,\"Stadion Center, Engerthstr. 242\""), "\(output)")
    }

    @Test("countries by their latlng: a hole (Lesotho in South Africa) and multi-polygons")
    func countries() throws {
        let output = try sameAnswers(dataset: "countries", table: "within_countries", [
            "columns name", "within \"South Africa\"", "page", "within Chile", "page",
            "within \"United States\"", "page", "within Russia", "page", "within Indonesia", "count", "within France", "count",
        ])
        #expect(output.contains("name\nSouth Africa\n") && !output.contains("Lesotho"), "\(output)")
    }
}
