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

    /// The same script on the file and on the table exported from it: the same output.
    func sameAnswers(dataset: String, table: String, format: String = "csv", normalized: (String) -> String = { $0 },
                     _ script: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try Database.sameAnswers(dataset, table: table, in: home, format: format, normalized: normalized, script, sourceLocation: sourceLocation)
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

    @Test("under json and ndjson a table's within and near print memory's GeoJSON, not rows")
    func geoJSON() throws {
        // The same documents, each object's keys sorted: a jsonb column (point) orders its own keys.
        func sortedKeys(_ text: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]),
                      let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return String(line) }
                return String(decoding: data, as: UTF8.self)
            }.joined(separator: "\n")
        }
        let json = try sameAnswers(dataset: "stations", table: "within_geojson", format: "json", normalized: { sortedKeys($0.replacingOccurrences(of: "\n", with: "")) },
                                   ["within Austria"])
        // 7 stations in Austria (counted independently above), each a Feature with its point.
        #expect(json.hasPrefix("{\"type\":\"FeatureCollection\",\"features\":[\n"), "\(json)")
        #expect(json.components(separatedBy: "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\"").count - 1 == 7, "\(json)")
        let lines = try sameAnswers(dataset: "stations", table: "within_geojson_lines", format: "ndjson", normalized: sortedKeys,
                                    ["near \"55.75, 37.62\" within 5 km"])
        // Stations within 5 km of 55.75, 37.62 by haversine over the file's 4,037 distinct points
        // (python3): 68, nearest first, each a Feature line with its distance.
        let features = lines.split(separator: "\n")
        #expect(features.count == 68 && features.allSatisfy { $0.hasPrefix("{\"type\":\"Feature\"") && $0.contains("\"distance\":") },
                "\(lines)")
    }
}
