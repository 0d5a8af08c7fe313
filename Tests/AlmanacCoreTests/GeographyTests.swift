import Foundation
import Testing
@testable import AlmanacCore

/// The border graph, haversine, the point grid and the outlines, each against a small
/// independent computation written here (a plain BFS, Python's haversine, a ray cast over
/// every ring without bands or boxes), compared as whole answers.
@Suite struct GeographyTests {
    static let outlines = try! WorldOutlines.load(path: RealData.directory + "/world.geojson")
    static let areas = WorldAreas(outlines)

    /// countries.json as Foundation reads it: code and borders per record, in file order.
    static let rawCountries: [(code: String, borders: [String])] = {
        let array = RawData.object("countries.json") as! [[String: Any]]
        return array.map { ($0["alpha3Code"] as! String, $0["borders"] as? [String] ?? []) }
    }()

    /// Breadth-first distances from `start` over borders named by either side.
    static func distances(from start: String) -> [String: Int] {
        var adjacent: [String: Set<String>] = [:]
        for (code, borders) in rawCountries {
            for other in borders {
                adjacent[code, default: []].insert(other)
                adjacent[other, default: []].insert(code)
            }
        }
        var distance = [start: 0]
        var queue = [start]
        while !queue.isEmpty {
            let code = queue.removeFirst()
            for other in adjacent[code] ?? [] where distance[other] == nil {
                distance[other] = distance[code]! + 1
                queue.append(other)
            }
        }
        return distance
    }

    static func row(_ code: String) -> Int { RealData.countries.row(forIdentity: code)! }
    static func code(_ row: Int) -> String { rawCountries[row].code }

    // MARK: - Borders

    @Test func reachFromEveryCountryMatchesAPlainBreadthFirstSearch() {
        let graph = BorderGraph.of(RealData.countries)
        #expect(graph.count == 250)
        for (row, (code, _)) in Self.rawCountries.enumerated() {
            var expected = Self.distances(from: code)
            expected[code] = nil
            let found = graph.reach(from: row, within: 1000)
            #expect(Dictionary(uniqueKeysWithValues: found.map { (Self.code($0.row), $0.borders) }) == expected, "from \(code)")
            // Nearest first.
            #expect(found.map(\.borders) == found.map(\.borders).sorted())
            let two = Set(graph.reach(from: row, within: 2).map { Self.code($0.row) })
            #expect(two == Set(expected.filter { $0.value <= 2 }.keys))
        }
    }

    @Test func pathsAreShortestChainsOfBordersAndNoneCrossTheSea() throws {
        let graph = BorderGraph.of(RealData.countries)
        for start in ["PRT", "FRA", "CHN", "ZAF", "BRA", "GBR"] {
            let distances = Self.distances(from: start)
            for (end, _) in Self.rawCountries {
                let path = graph.path(from: Self.row(start), to: Self.row(end))
                guard let expected = distances[end] else {
                    #expect(path == nil, "\(start) to \(end)")
                    continue
                }
                let chain = try #require(path, "\(start) to \(end)")
                #expect(chain.count == expected + 1)
                #expect(chain.first == Self.row(start) && chain.last == Self.row(end))
                for (a, b) in zip(chain, chain.dropFirst()) { #expect(graph.neighbours[a].contains(b)) }
            }
        }
        #expect(graph.path(from: Self.row("PRT"), to: Self.row("CHN"))?.map(Self.code).count == Self.distances(from: "PRT")["CHN"]! + 1)
        #expect(graph.path(from: Self.row("GBR"), to: Self.row("FRA")) == nil)
        #expect(Set(graph.members(ofComponentOf: Self.row("GBR")).map(Self.code)) == ["GBR", "IRL"])
        #expect(graph.members(ofComponentOf: Self.row("FRA")).count == Self.distances(from: "FRA").count)
    }

    @Test func aBorderNamedByOneSideCountsBothWays() {
        let graph = BorderGraph.of(RealData.countries)
        // Brazil names France (French Guiana); France does not name Brazil.
        #expect(!Self.rawCountries[Self.row("FRA")].borders.contains("BRA"))
        #expect(graph.neighbours[Self.row("FRA")].contains(Self.row("BRA")))
        #expect(graph.path(from: Self.row("FRA"), to: Self.row("BRA")) == [Self.row("FRA"), Self.row("BRA")])
    }

    // MARK: - Distances

    @Test func haversineAgreesWithPython() {
        // Python: 2*6371.0088*asin(sqrt(sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2))).
        let cases: [(Double, Double, Double, Double, Double)] = [
            (48.2, 16.37, 55.37, 50.64, 2459.2070597499714), (-33.87, 151.21, 51.5, -0.13, 16994.635417267895),
            (0, 179.9, 0, -179.9, 22.23901604670676), (90, 0, -90, 0, 20015.114442035923),
        ]
        for (lat1, lon1, lat2, lon2, expected) in cases {
            #expect(abs(Haversine.kilometres(lat1, lon1, lat2, lon2) - expected) < 1e-6)
        }
        let latitudes = cases.map(\.2)
        let longitudes = cases.map(\.3)
        let batch = Haversine.kilometres(latitudes1: cases.map(\.0), longitudes1: cases.map(\.1), latitudes2: latitudes, longitudes2: longitudes)
        #expect(zip(batch, cases.map(\.4)).allSatisfy { abs($0 - $1) < 1e-6 })
        var fromVienna = [Double](repeating: 0, count: cases.count)
        latitudes.withUnsafeBufferPointer { lat in
            longitudes.withUnsafeBufferPointer { lon in
                fromVienna.withUnsafeMutableBufferPointer { Haversine.kilometres(from: GeoPoint(latitude: 48.2, longitude: 16.37), latitudes: lat, longitudes: lon, into: $0) }
            }
        }
        #expect(abs(fromVienna[0] - 2459.2070597499714) < 1e-6)
    }

    /// Every station with coordinates, read by Foundation.
    static let stationPoints: [(id: Int, latitude: Double, longitude: Double)] = {
        let object = RawData.object("stations.json") as! [String: Any]
        var seen = Set<Int>()
        var points: [(Int, Double, Double)] = []
        for list in ["citiesFrom", "citiesTo"] {
            for city in object[list] as! [[String: Any]] {
                for station in city["stations"] as! [[String: Any]] {
                    let id = station["stationId"] as! Int
                    guard seen.insert(id).inserted, let point = station["point"] as? [String: Any],
                          let latitude = point["latitude"] as? Double, let longitude = point["longitude"] as? Double else { continue }
                    points.append((id, latitude, longitude))
                }
            }
        }
        return points
    }()

    @Test func theGridFindsWhatAScanOfEveryStationFinds() throws {
        let stations = RealData.stations
        let grid = try PointGrid.of(stations)
        #expect(grid.count == Self.stationPoints.count)
        let idPath = stations.compile(FieldPath("stationId"))
        let ids = (0..<stations.count).map { Int(stations.number(of: stations.values(of: idPath, row: $0)[0])!) }
        for (latitude, longitude, radius) in [(55.75, 37.62, 30.0), (48.2, 16.37, 400), (59.93, 30.34, 5), (43.1, 131.9, 200), (64, 180, 3000),
                                              (10, 10, 1), (55.75, 37.62, 20_000)] {
            let centre = GeoPoint(latitude: latitude, longitude: longitude)
            let found = try grid.within(radius, of: centre)
            var expected: [Int: Double] = [:]
            for point in Self.stationPoints {
                let r = Double.pi / 180
                let a = pow(sin((point.latitude - latitude) * r / 2), 2) + cos(latitude * r) * cos(point.latitude * r) * pow(sin((point.longitude - longitude) * r / 2), 2)
                let kilometres = 2 * 6371.0088 * asin(sqrt(a))
                if kilometres <= radius { expected[point.id] = kilometres }
            }
            let got = Dictionary(uniqueKeysWithValues: found.map { (ids[$0.row], $0.kilometres) })
            #expect(Set(got.keys) == Set(expected.keys), "\(radius) km of \(latitude), \(longitude)")
            #expect(got.allSatisfy { abs($0.value - (expected[$0.key] ?? -1)) < 1e-6 })
        }
    }

    @Test func theGridWrapsAroundTheAntimeridianAndReachesThePoles() throws {
        let points: [GeoPoint?] = [GeoPoint(latitude: 0, longitude: 179.95), GeoPoint(latitude: 0, longitude: -179.95), GeoPoint(latitude: 89.99, longitude: 0),
                                   GeoPoint(latitude: 89.99, longitude: 180), nil, GeoPoint(latitude: 300, longitude: 0)]
        let grid = PointGrid(points: points)
        #expect(grid.count == 4 && grid.withoutCoordinates == 2 && grid.invalid == 1)
        #expect(Set(try grid.within(12, of: GeoPoint(latitude: 0, longitude: 180)).map(\.row)) == [0, 1])
        #expect(Set(try grid.within(5, of: GeoPoint(latitude: 90, longitude: 0)).map(\.row)) == [2, 3])
        #expect(try grid.within(1, of: GeoPoint(latitude: 0, longitude: 0)).isEmpty)
    }

    // MARK: - Outlines

    /// Inside by the even–odd rule over every ring of every polygon, no boxes or bands.
    static func plainlyInside(_ shapes: GeoShapes, _ point: GeoPoint) -> Bool {
        shapes.polygons.contains { rings in
            var inside = false
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst() + [ring[0]])
                where (a.latitude > point.latitude) != (b.latitude > point.latitude)
                    && point.longitude < a.longitude + (point.latitude - a.latitude) * (b.longitude - a.longitude) / (b.latitude - a.latitude) {
                    inside.toggle()
                }
            }
            return inside
        }
    }

    @Test func pointInOutlineMatchesAPlainRayCastEverywhere() {
        var tested = 0
        var insideCount = 0
        for (index, outline) in Self.outlines.outlines.enumerated() {
            let box = outline.box
            let area = Self.areas.areas[index]
            // A lattice over the outline's box, off the 0.01° grid its vertices lie on.
            for i in 0..<24 {
                for j in 0..<24 {
                    let point = GeoPoint(latitude: box.south + (box.north - box.south) * (Double(i) + 0.5137) / 24,
                                         longitude: box.west + (box.east - box.west) * (Double(j) + 0.4871) / 24)
                    let expected = Self.plainlyInside(outline.shapes, point)
                    #expect(area.contains(point) == expected, "\(outline.name) at \(point)")
                    tested += 1
                    if expected { insideCount += 1 }
                }
            }
        }
        #expect(tested == 177 * 576)
        #expect(insideCount > tested / 4)
    }

    @Test func holesAndMultipolygonsAreRight() throws {
        func outline(_ code: String) -> Int { Self.outlines.outline(code: code, name: "")! }
        let maseru = GeoPoint(latitude: -29.31, longitude: 27.48)
        #expect(!Self.areas.areas[outline("ZAF")].contains(maseru))
        #expect(Self.areas.areas[outline("LSO")].contains(maseru))
        #expect(Self.areas.outline(at: maseru) == outline("LSO"))
        #expect(Self.areas.areas[outline("ZAF")].contains(GeoPoint(latitude: -26.2, longitude: 28.04)))
        // Kaliningrad and Chukotka (east of 180°) are Russia's too; Alaska the United States'.
        #expect(Self.areas.areas[outline("RUS")].contains(GeoPoint(latitude: 54.71, longitude: 20.51)))
        #expect(Self.areas.areas[outline("RUS")].contains(GeoPoint(latitude: 66, longitude: -172)))
        #expect(Self.areas.areas[outline("USA")].contains(GeoPoint(latitude: 64.84, longitude: -147.72)))
        #expect(Self.areas.outline(at: GeoPoint(latitude: 45, longitude: -30)) == nil)
    }

    @Test func distanceToAnOutlineIsTheNearestPointOfItsEdges() {
        // Against the nearest of many points along every edge (a finer sampling can only be nearer).
        let cases: [(String, GeoPoint)] = [("AUT", GeoPoint(latitude: 50.08, longitude: 14.43)), ("ISL", GeoPoint(latitude: 51.5, longitude: -0.13)),
                                           ("LSO", GeoPoint(latitude: -26.2, longitude: 28.04)), ("RUS", GeoPoint(latitude: 60.17, longitude: 24.94)),
                                           ("FJI", GeoPoint(latitude: -17, longitude: -179))]
        for (code, point) in cases {
            let index = Self.outlines.outline(code: code, name: "")!
            let computed = Self.areas.areas[index].kilometres(to: point)
            var sampled = Double.infinity
            for polygon in Self.outlines.outlines[index].shapes.polygons {
                for ring in polygon {
                    for (a, b) in zip(ring, ring.dropFirst()) {
                        for step in 0...64 { sampled = min(sampled, Haversine.kilometres(point, GreatCircle.point(Double(step) / 64, from: a, to: b))) }
                    }
                }
            }
            #expect(computed <= sampled + 1e-6, "\(code)")
            #expect(sampled - computed < 0.5, "\(code): \(computed) vs \(sampled)")
        }
        #expect(Self.areas.areas[Self.outlines.outline(code: "AUT", name: "")!].kilometres(to: GeoPoint(latitude: 48.2, longitude: 16.37)) == 0)
    }

    @Test func aRouteCrossesItsCountriesInOrder() {
        // Vienna to Chistopol (the trip help's example), checked every 0.25 km by the plain ray cast.
        let start = GeoPoint(latitude: 48.2, longitude: 16.37)
        let end = GeoPoint(latitude: 55.37, longitude: 50.64)
        let crossings = Self.areas.crossings(from: start, to: end)
        var expected: [String] = []
        let samples = 4 * Int(Haversine.kilometres(start, end).rounded(.up))
        for index in 0...samples {
            let point = GreatCircle.point(Double(index) / Double(samples), from: start, to: end)
            let box = GeoBox(south: point.latitude, north: point.latitude, west: point.longitude, east: point.longitude)
            if let found = Self.outlines.outlines.first(where: { $0.box.intersects(box) && Self.plainlyInside($0.shapes, point) }),
               expected.last != found.code {
                expected.append(found.code)
            }
        }
        #expect(crossings.map { Self.outlines.outlines[$0.outline].code } == expected)
        #expect(expected.first == "AUT" && expected.last == "RUS")
        #expect(crossings.first?.enters == 0)
        #expect(abs((crossings.last?.leaves ?? 0) - Haversine.kilometres(start, end)) < 1e-9)
        for (a, b) in zip(crossings, crossings.dropFirst()) { #expect(a.leaves <= b.enters) }
    }
}
