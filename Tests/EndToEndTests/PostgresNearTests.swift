import Foundation
import PostgresCluster
import Testing

/// `near` on an attached table runs in the database (haversine in SQL, bound parameters) and
/// answers as `near` over the same records in memory: the same rows, distances, pages, sorts,
/// filters on the distance, counts and groups. outside and reach say they need memory.
@Suite("PostgreSQL: near in SQL answers as in memory")
struct PostgresNearTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ lines: [String], format: String = "csv") throws -> PipeResult {
        try PipeRun.run(["--no-rc", "--format", format], input: lines.joined(separator: "\n") + "\n",
                        environment: home.environment(), directory: home.root)
    }

    @Test("stations near a station and near a place: memory and table alike")
    func sameAnswers() throws {
        let url = try Database.url("near_stations")
        let file = home.root + "/stations.json"
        let exported = try run(["use stations", "export \(file)", "export \(url) --force"])
        #expect(exported.status == 0, "\(exported)")
        let script = ["set pagesize 10", "use d", "columns stationId, stationTitle, distance",
                      "near \"Stadion Center, Engerthstr. 242\" within 300 km", "page", "page 2", "sort distance desc", "filter distance < 100",
                      "count", "back", "back", "near \"55.75, 37.62\" within 20 km", "count", "filter distance != 0.4", "count",
                      "group countryTitle"]
        let memory = try run(["load d from \(file)"] + script)
        let database = try run(["load d from \(url)"] + script)
        #expect(memory.status == 0 && memory.stderr.isEmpty, "\(memory)")
        #expect(database.status == 0 && database.stderr.isEmpty, "\(database)")
        #expect(memory.stdout == database.stdout, "memory:\n\(memory.stdout)\ndatabase:\n\(database.stdout)")
        #expect(memory.stdout.contains("9778,\"Stadion Center, Olympiaplatz 2\",0.0"), "\(memory.stdout)")
        #expect(!memory.stdout.contains("9864,\"Stadion Center, Engerthstr. 242\",0.0"), "the station measured from is left out")
    }
}
