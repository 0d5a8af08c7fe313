import Foundation
import PostgresCluster
import Testing

/// `near` on an attached table runs in the database (haversine in SQL, bound parameters) and
/// answers as `near` over the same records in memory: the same rows, distances, pages, sorts,
/// filters on the distance, counts and groups.
@Suite("PostgreSQL: near in SQL answers as in memory")
struct PostgresNearTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    @Test("stations near a station and near a place: memory and table alike")
    func sameAnswers() throws {
        let script = ["set pagesize 10", "columns stationId, stationTitle, distance",
                      "near \"Stadion Center, Engerthstr. 242\" within 300 km", "page", "page 2", "sort distance desc", "filter distance < 100",
                      "count", "back", "back", "near \"55.75, 37.62\" within 20 km", "count", "filter distance != 0.4", "count",
                      "group countryTitle"]
        let output = try Database.sameAnswers("stations", table: "near_stations", in: home, script)
        #expect(output.contains("9778,\"Stadion Center, Olympiaplatz 2\",0.0"), "\(output)")
        #expect(!output.contains("9864,\"Stadion Center, Engerthstr. 242\",0.0"), "the station measured from is left out")
    }
}
