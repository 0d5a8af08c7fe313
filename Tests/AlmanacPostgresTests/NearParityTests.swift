import AlmanacCore
import AlmanacPostgres
import PostgresCluster
import Testing

/// `near` on a table is SQL (haversine with bound parameters, WHERE distance <= N ORDER BY
/// distance): the same rows and distances as almanac's in-memory near over the same records.
@Suite struct NearParityTests {
    /// Each row's identity and distance, in the order given.
    static func rows(_ results: ResultSet, identity: String) -> [(String, String)] {
        results.items.map { item in
            let dataset = results.dataset(of: item)
            return (dataset.displayText(of: dataset.compile(FieldPath(identity)), row: item.row) ?? "",
                    results.computedColumn("distance")?.text(of: item) ?? dataset.displayText(of: dataset.compile(FieldPath("distance")), row: item.row) ?? "")
        }
    }

    static func compare(_ dataset: String, identity: String, _ spec: NearSpec) throws {
        let table = try TestCluster.shared().bundledTable(dataset)
        var database = try PostgresResults(table: table).applying(.near(spec), cancellation: .never)
        let count = try database.count(fresh: true, cancellation: .never)
        let page = try database.page(start: 0, size: count + 1, cancellation: .never)
        let fromDatabase = rows(page.results, identity: identity)
        var memory = QueryStack(datasets: [try BundledData.generic(dataset)])
        let fromMemory = rows(try memory.apply(.near(spec)), identity: identity)
        #expect(fromDatabase.count == fromMemory.count && !fromMemory.isEmpty, "\(dataset): \(fromDatabase.count) vs \(fromMemory.count)")
        // Ties may come in another order: each distance's rows as a set.
        func grouped(_ rows: [(String, String)]) -> [String: Set<String>] { Dictionary(grouping: rows, by: \.1).mapValues { Set($0.map(\.0)) } }
        #expect(grouped(fromDatabase) == grouped(fromMemory))
        #expect(fromDatabase.map { Double($0.1)! } == fromMemory.map { Double($0.1)! }, "nearest first in both")
    }

    @Test func stationsNearAPointAnswerAsInMemory() throws {
        try Self.compare("stations", identity: "stationId", NearSpec(centre: GeoPoint(latitude: 55.75, longitude: 37.62), kilometres: 40))
        try Self.compare("stations", identity: "stationId", NearSpec(centre: GeoPoint(latitude: 48.2, longitude: 16.37), kilometres: 600))
    }

    @Test func countriesByTheirLatlngAnswerAsInMemory() throws {
        try Self.compare("countries", identity: "alpha3Code", NearSpec(centre: GeoPoint(latitude: 48.2, longitude: 16.37), kilometres: 900))
    }

    @Test func theRowMeasuredFromIsLeftOutAndTheSQLBindsItsValues() throws {
        let table = try TestCluster.shared().bundledTable("stations")
        let source = PostgresResults(table: table)
        let filter = try FilterExpression.parse(FilterExpression.tokens([("stationId", false), ("=", false), ("9864", false)]))
        let origin = try source.applying(.filter(filter), cancellation: .never).record(at: 0, cancellation: .never)
        let spec = NearSpec(centre: GeoPoint(latitude: 48.20253753662109, longitude: 16.36879539489746), kilometres: 5, excludedRecord: origin)
        var near = try source.applying(.near(spec), cancellation: .never)
        let page = try near.page(start: 0, size: 100, cancellation: .never)
        let ids = Self.rows(page.results, identity: "stationId").map(\.0)
        #expect(!ids.contains("9864") && ids.contains("9778"), "\(ids)")
        let sql = try table.pageSQL(near.query, limit: 10)
        #expect(!sql.text.contains("48.2") && !sql.text.contains("16.36") && sql.parameters.contains("5.0"), "\(sql.text)")
    }
}
