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

    @Test("stations within Austria and Russia: memory and table alike")
    func stations() throws {
        let output = try sameAnswers(dataset: "stations", table: "within_stations", [
            "set pagesize 10", "columns stationId, stationTitle",
            "within Austria", "count", "page",
            "within \"Russian Federation\"", "count", "page", "page 40", "group countryTitle", "filter stationId < 1000", "count",
        ])
        // Also counted independently: an even-odd ray cast per polygon of world.geojson over the
        // 4,037 distinct stations' points (python3) gives 7 and 3,071 (and 0 in Chile, below).
        #expect(output.contains("count\n7\n"), "\(output)")
        #expect(output.contains("count\n3071\n"), "\(output)")
        #expect(output.contains("9864,\"Stadion Center, Engerthstr. 242\""), "\(output)")
    }

    @Test("an empty within says how many records it placed and which lies nearest the outline: memory and table alike")
    func emptyWithinSaysTheNearest() throws {
        // Expected from the files: the stations with a point, and the one nearest each outline —
        // the least distance to an edge taken as the great-circle arc between its ends (here by
        // cross-track and along-track distance), rounded as shown.
        let stations = try MapCommandTests.stations().values.compactMap { station in
            GeographyCommandTests.point(station).map { (title: station["stationTitle"] as? String ?? "", point: $0) }
        }
        let outlines = try GeographyCommandTests.outlines()
        func nearest(_ code: String) throws -> String {
            let polygons = try #require(outlines.first { $0.code == code }?.polygons)
            let edges = polygons.flatMap { $0.flatMap { ring in ring.indices.dropLast().map { (ring[$0], ring[$0 + 1]) } } }
            let (title, km) = try #require(stations.map { station in
                (station.title, edges.map { Self.kilometres(from: station.point, toArc: $0.0, $0.1) }.min() ?? .infinity)
            }.min { $0.1 < $1.1 })
            let tenths = Int((km * 10).rounded())
            return "\(title), \(ValueReadingTests.grouped(String(tenths / 10))).\(tenths % 10) km outside it"
        }
        let (memory, database) = try Database.runs("stations", table: "within_empty", in: home, ["within Chile", "count", "within Japan", "count"])
        #expect(memory.stdout == "count\n0\ncount\n0\n" && memory.status == 0, "\(memory)")
        let placed = "no records — none of the \(ValueReadingTests.grouped(String(stations.count))) records with coordinates lies inside"
        #expect(memory.stderr == "\(placed) Chile's outline; the nearest is \(try nearest("CHL"))\n"
                + "\(placed) Japan's outline; the nearest is \(try nearest("JPN"))\n", "\(memory)")
        #expect(database.stdout == memory.stdout && database.stderr == memory.stderr && database.status == 0, "\(database)")
    }

    /// Kilometres from `p` to the great-circle arc from `a` to `b` (each [latitude, longitude];
    /// `a` and `b` as GeoJSON's [longitude, latitude]): across to the arc when the foot of the
    /// perpendicular falls on it, else to the nearer end.
    static func kilometres(from p: [Double], toArc a: [Double], _ b: [Double]) -> Double {
        let r = Double.pi / 180, radius = 6371.0088
        let (a, b) = ([a[1], a[0]], [b[1], b[0]])
        func angle(_ x: [Double], _ y: [Double]) -> Double { GeographyCommandTests.haversine(x, y) / radius }
        func bearing(_ x: [Double], _ y: [Double]) -> Double {
            let dLon = (y[1] - x[1]) * r
            return atan2(sin(dLon) * cos(y[0] * r), cos(x[0] * r) * sin(y[0] * r) - sin(x[0] * r) * cos(y[0] * r) * cos(dLon))
        }
        let ends = min(angle(a, p), angle(b, p))
        let length = angle(a, b)
        guard length > 1e-12 else { return ends * radius }
        let toPoint = angle(a, p), turn = bearing(a, p) - bearing(a, b)
        let across = asin(sin(toPoint) * sin(turn))
        let along = acos(max(-1, min(1, cos(toPoint) / cos(across))))
        guard cos(turn) > 0, along <= length else { return ends * radius }
        return min(ends, abs(across)) * radius
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
