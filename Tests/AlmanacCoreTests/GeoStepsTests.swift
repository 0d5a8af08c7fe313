import Foundation
import Testing
@testable import AlmanacCore

/// near, within, outside and reach as steps of the in-memory engine: their records against
/// a scan of the raw files, and their computed column kept by the steps after them.
@Suite struct GeoStepsTests {
    static let stations = RealData.stations
    static let ids: [Int] = {
        let path = stations.compile(FieldPath("stationId"))
        return (0..<stations.count).map { Int(stations.number(of: stations.values(of: path, row: $0)[0])!) }
    }()

    static func row(ofStation id: Int) -> Int { ids.firstIndex(of: id)! }

    @Test func nearListsTheStationsWithinTheRadiusNearestFirstWithTheirDistance() throws {
        var stack = QueryStack(datasets: [Self.stations])
        // Kazan's station 9362 is Chistopol; its neighbours within 150 km.
        let origin = Self.row(ofStation: 9362)
        let point = GeographyTests.stationPoints.first { $0.id == 9362 }!
        let centre = GeoPoint(latitude: point.latitude, longitude: point.longitude)
        let results = try stack.apply(.near(NearSpec(centre: centre, kilometres: 150, excluding: ResultSet.Item(dataset: 0, row: origin))))
        var expected: [(id: Int, km: Double)] = []
        for other in GeographyTests.stationPoints where other.id != 9362 {
            let km = Haversine.kilometres(point.latitude, point.longitude, other.latitude, other.longitude)
            if km <= 150 { expected.append((other.id, (km * 10).rounded() / 10)) }
        }
        expected.sort { ($0.km, Self.row(ofStation: $0.id)) < ($1.km, Self.row(ofStation: $1.id)) }
        #expect(results.items.map { Self.ids[$0.row] } == expected.map(\.id))
        let column = try #require(results.computedColumn("distance"))
        #expect(results.items.map { column.value(of: $0)! } == expected.map(\.km))
        #expect(expected.count > 10)

        // Sorting and filtering keep each record's distance.
        let sorted = try stack.apply(.sort([SortKey("stationTitle")]))
        #expect(sorted.items.map { column.value(of: $0)! } == sorted.items.map { item in expected.first { $0.id == Self.ids[item.row] }!.km })
        let byDistance = try stack.apply(.sort([SortKey("distance", descending: true)]))
        #expect(byDistance.items.map { byDistance.computedColumn("distance")!.value(of: $0)! } == expected.map(\.km).sorted(by: >))
        let listing = RecordListing.table(byDistance, range: 0..<2, fields: ["stationId", "distance"])
        #expect(listing.columns.map(\.name) == ["stationId", "distance"])
        #expect(listing.row(0)[1].number == expected.map(\.km).max())
        let unsorted = RecordListing.table(results, range: 0..<1, fields: ["stationId"])
        #expect(unsorted.columns.map(\.name) == ["stationId", "distance"])
        // filter reads the distance as a number.
        let near = try stack.apply(.filter(FilterExpression.parse(FilterExpression.tokens([("distance", false), ("<", false), ("100", false)]))))
        #expect(near.items.map { Self.ids[$0.row] }.sorted() == expected.filter { $0.km < 100 }.map(\.id).sorted())
        #expect(throws: QueryError.self) {
            try stack.evaluate(.filter(FilterExpression.parse(FilterExpression.tokens([("distance", false), ("~", false), ("1", false)]))))
        }
        // filter clear takes the filter away, not the near: its stations and distances, in the sorts' order.
        let cleared = try stack.apply(.clear)
        #expect(cleared.items.map { cleared.computedColumn("distance")!.value(of: $0)! } == expected.map(\.km).sorted(by: >))
    }

    static func station(_ id: Int) -> [String: Any] {
        let object = RawData.object("stations.json") as! [String: Any]
        for list in ["citiesFrom", "citiesTo"] {
            for city in object[list] as! [[String: Any]] {
                for station in city["stations"] as! [[String: Any]] where station["stationId"] as! Int == id { return station }
            }
        }
        return [:]
    }

    @Test func withinAustriaIsEveryStationInsideItsOutline() throws {
        let outlines = GeographyTests.outlines
        let index = outlines.outline(code: "AUT", name: "Austria")!
        let spec = WithinSpec(name: "Austria", area: GeographyTests.areas.areas[index])
        let results = try QueryStack(datasets: [Self.stations]).evaluate(.within(spec))
        let expected = GeographyTests.stationPoints.filter {
            GeographyTests.plainlyInside(outlines.outlines[index].shapes, GeoPoint(latitude: $0.latitude, longitude: $0.longitude))
        }.map(\.id)
        #expect(results.items.map { Self.ids[$0.row] } == expected.sorted { Self.row(ofStation: $0) < Self.row(ofStation: $1) })
        #expect(expected.count >= 5)
        #expect(results.computed.isEmpty)
    }

    @Test func outsideListsStationsAwayFromTheirOwnCountryFarthestFirst() throws {
        let spec = OutsideSpec(field: "countryTitle", countries: RealData.countries, areas: GeographyTests.areas)
        let results = try QueryStack(datasets: [Self.stations]).evaluate(.outside(spec))
        // Independently: countryTitle → the country whose Russian translation it is → its outline.
        let countries = RawData.object("countries.json") as! [[String: Any]]
        func code(ofRussianName name: String) -> String? {
            countries.first { (($0["translations"] as? [String: Any])?["ru"] as? String) == name }?["alpha3Code"] as? String
        }
        var expected: [(id: Int, km: Double)] = []
        let object = RawData.object("stations.json") as! [String: Any]
        var seen = Set<Int>()
        for list in ["citiesFrom", "citiesTo"] {
            for city in object[list] as! [[String: Any]] {
                for station in city["stations"] as! [[String: Any]] {
                    let id = station["stationId"] as! Int
                    guard seen.insert(id).inserted, let point = station["point"] as? [String: Any],
                          let code = code(ofRussianName: station["countryTitle"] as! String),
                          let outline = GeographyTests.outlines.outline(code: code, name: "") else { continue }
                    let location = GeoPoint(latitude: point["latitude"] as! Double, longitude: point["longitude"] as! Double)
                    let shapes = GeographyTests.outlines.outlines[outline].shapes
                    if !GeographyTests.plainlyInside(shapes, location) {
                        expected.append((id, Haversine.rounded(GeographyTests.areas.areas[outline].kilometres(to: location))))
                    }
                }
            }
        }
        expected.sort { ($1.km, Self.row(ofStation: $0.id)) < ($0.km, Self.row(ofStation: $1.id)) }
        #expect(results.items.map { Self.ids[$0.row] } == expected.map(\.id))
        #expect(results.items.map { results.computedColumn("distance")!.value(of: $0)! } == expected.map(\.km))
        #expect(!expected.isEmpty)
    }

    @Test func reachCarriesTheDistanceInBorders() throws {
        let countries = RealData.countries
        let spain = countries.row(forIdentity: "ESP")!
        let results = try QueryStack(datasets: [countries]).evaluate(.reach(ReachSpec(dataset: "countries", row: spain, borders: 2)))
        let expected = GeographyTests.distances(from: "ESP").filter { $0.value >= 1 && $0.value <= 2 }
        let column = try #require(results.computedColumn("distance"))
        #expect(Dictionary(uniqueKeysWithValues: results.items.map { (GeographyTests.code($0.row), Int(column.value(of: $0)!)) }) == expected)
        #expect(column.cell(of: results.items[0]).number == 1)
    }
}

extension QueryStack {
    /// One step's results without keeping it.
    func evaluate(_ step: QueryStep) throws -> ResultSet {
        var copy = self
        return try copy.apply(step)
    }
}
