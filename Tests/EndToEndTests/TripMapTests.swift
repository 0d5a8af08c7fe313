import Foundation
import Testing

/// `trip … --map`: the trip, then both stations and the great-circle route on a braille map;
/// under json a GeoJSON FeatureCollection whose route runs from one station to the other
/// along the great circle (checked with vector algebra here, not almanac's code).
@Suite("trip --map")
struct TripMapTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ commands: [String], format: String? = nil) throws -> PipeResult {
        try home.run(commands, format: format)
    }

    /// Latitude and longitude of stations 9864 (Vienna) and 9362 (Chistopol) from the file.
    static func ends() throws -> (from: [Double], to: [Double]) {
        let stations = try MapCommandTests.stations()
        func point(_ id: Int) throws -> [Double] {
            let point = try #require(stations[id]?["point"] as? [String: Double])
            return [point["latitude"]!, point["longitude"]!]
        }
        return (try point(9864), try point(9362))
    }

    static func vector(latitude: Double, longitude: Double) -> [Double] {
        let (lat, lon) = (latitude * .pi / 180, longitude * .pi / 180)
        return [cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)]
    }

    @Test("the trip's text, a braille map and the route's legend")
    func picture() throws {
        let plain = try run(["use stations", "trip from 9864 to 9362 on 2099-12-01"])
        let mapped = try run(["use stations", "trip from 9864 to 9362 on 2099-12-01 --map"])
        #expect(mapped.status == 0 && mapped.stderr.isEmpty, "\(mapped)")
        let lines = mapped.stdout.lines
        #expect(Array(lines.prefix(6)) == plain.stdout.lines, "the trip as without --map first")
        let map = lines.dropFirst(6).dropLast(2)
        #expect(map.count >= 5 && map.allSatisfy { $0.unicodeScalars.allSatisfy(MapCommandTests.isBraille) }, "\(mapped)")
        let (from, to) = try Self.ends()
        let (a, b) = (Self.vector(latitude: from[0], longitude: from[1]), Self.vector(latitude: to[0], longitude: to[1]))
        let kilometres = 6371.0088 * acos(a[0] * b[0] + a[1] * b[1] + a[2] * b[2])
        #expect(lines[lines.count - 2] == String(format: "the route: %@ km along the great circle from %.2f°N %.2f°E to %.2f°N %.2f°E",
                                                  String(format: "%.1f", kilometres).replacingOccurrences(of: "2459", with: "2,459"),
                                                  from[0], from[1], to[0], to[1]), "\(mapped)")
        #expect(lines.last?.hasPrefix("equirectangular projection") == true)
    }

    @Test("GeoJSON: both stations as points and the route along the great circle")
    func geoJSON() throws {
        let result = try run(["use stations", "trip from 9864 to 9362 --map"], format: "json")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        let features = try #require(root["features"] as? [[String: Any]])
        #expect(features.count == 3)
        let (from, to) = try Self.ends()
        let geometries = features.compactMap { $0["geometry"] as? [String: Any] }
        #expect(geometries.map { $0["type"] as? String } == ["Point", "Point", "LineString"])
        #expect(geometries[0]["coordinates"] as? [Double] == [from[1], from[0]], "[longitude, latitude]")
        #expect(geometries[1]["coordinates"] as? [Double] == [to[1], to[0]])
        #expect((features[0]["properties"] as? [String: Any])?["stationId"] as? Int == 9864)
        let route = try #require(geometries[2]["coordinates"] as? [[Double]])
        #expect(route.first == [from[1], from[0]] && route.last == [to[1], to[0]], "the route joins the stations")
        #expect(route.count % 2 == 1)
        let middle = route[route.count / 2]
        let (a, b) = (Self.vector(latitude: from[0], longitude: from[1]), Self.vector(latitude: to[0], longitude: to[1]))
        let m = Self.vector(latitude: middle[1], longitude: middle[0])
        let normal = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        #expect(abs(normal[0] * m[0] + normal[1] * m[1] + normal[2] * m[2]) < 1e-9, "the midpoint is on the great circle")
        let toStart = acos(m[0] * a[0] + m[1] * a[1] + m[2] * a[2])
        let toEnd = acos(m[0] * b[0] + m[1] * b[1] + m[2] * b[2])
        #expect(abs(toStart - toEnd) < 1e-9, "and halfway along it")
        #expect(route.allSatisfy { (-180...180).contains($0[0]) && (-90...90).contains($0[1]) })
    }

    /// The distance in degrees (equirectangular at their mean latitude) from a point to the
    /// nearest vertex of a country's outline in Data/world.geojson.
    static func nearestBorder(of code: String, from latitude: Double, _ longitude: Double) throws -> Double {
        let data = try #require(FileManager.default.contents(atPath: DataFolder.realFolder + "/world.geojson"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        let country = try #require(features.first { ($0["properties"] as? [String: Any])?["iso_a3"] as? String == code })
        let geometry = try #require(country["geometry"] as? [String: Any])
        let polygons = geometry["type"] as? String == "MultiPolygon" ? geometry["coordinates"] as? [[[[Double]]]] ?? []
            : [geometry["coordinates"] as? [[[Double]]] ?? []]
        var best = Double.infinity
        for ring in polygons.joined() {
            for vertex in ring {
                best = min(best, hypot(vertex[1] - latitude, (vertex[0] - longitude) * cos((vertex[1] + latitude) / 2 * .pi / 180)))
            }
        }
        return best
    }

    @Test("a trip within one city shows the country's borders around it, not a dot on a blank area")
    func shortTripShowsBorders() throws {
        let stations = try MapCommandTests.stations()
        let point = try #require(stations[8226]?["point"] as? [String: Double])
        let (latitude, longitude) = (point["latitude"]!, point["longitude"]!)
        let border = try Self.nearestBorder(of: "RUS", from: latitude, longitude)
        #expect(border > 3, "Moscow is \(border)° from Russia's nearest border: a 4° frame shows none")
        let result = try run(["use stations", "trip from 8226 to 714 on 2099-12-01 --map"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let map = Array(result.stdout.lines.dropFirst(6).dropLast(2))
        let lit = map.joined().unicodeScalars.filter { MapCommandTests.isBraille($0) && $0.value != 0x2800 && $0 != " " }.count
        #expect(lit > 30, "outlines drawn (the route alone lights 6): \(lit) cells lit\n\(result.stdout)")
        // The map reaches that border on either side: its width in degrees of longitude is at least twice the way there.
        let legend = try #require(result.stdout.lines.last)
        let perColumn = try #require(legend.range(of: #"≈ ([0-9.]+)°"#, options: .regularExpression).map {
            Double(legend[$0].dropFirst(2).dropLast())!
        })
        let columns = map.map { $0.unicodeScalars.count }.max() ?? 0
        #expect(Double(columns) * perColumn >= 2 * border / cos(latitude * .pi / 180), "\(columns) columns × \(perColumn)°")
    }
}
