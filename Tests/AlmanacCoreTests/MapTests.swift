import Foundation
import Testing
@testable import AlmanacCore

@Suite struct MapTests {
    static let outlines = try! WorldOutlines.load(path: RealData.directory + "/world.geojson")

    /// Parses JSON text into a dataset of the generic model.
    static func generic(_ text: String) throws -> Dataset {
        var builder = JSONDocumentBuilder()
        _ = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try JSONParser.parse(bytes, source: "test.json", into: &builder)
        }
        let document = builder.finish()
        let extraction = try GenericModel.extract(from: document, source: "test.json", cancellation: .never)
        return Dataset(name: "test", model: GenericModel.self, document: document, extraction: extraction,
                       origin: LoadOrigin(source: "test.json", bytes: text.utf8.count, seconds: 0))
    }

    // MARK: - Canvas and projection

    @Test func aPointLandsInTheExpectedCellAndDot() throws {
        // The whole world in 36 × 9 cells: 72 × 36 dots, 5 degrees a dot both ways.
        let projection = Equirectangular(frame: .world, maximumWidth: 72, maximumHeight: 72)
        #expect(projection.width == 72 && projection.height == 36)
        var canvas = BrailleCanvas(dotsWide: projection.width, high: projection.height)
        #expect(canvas.columns == 36 && canvas.rows == 9)
        // 48.2°N 16.37°E (Vienna): x = (16.37 + 180) / 5 = 39.27 → dot 39 (cell 19, right column);
        // y = (90 − 48.2) / 5 = 8.36 → dot 8 (cell row 2, top row of the cell) → braille dot 4.
        let vienna = GeoPoint(latitude: 48.2, longitude: 16.37)
        let dot = try #require(projection.dot(vienna))
        #expect(dot.x == 39 && dot.y == 8)
        canvas.set(x: dot.x, y: dot.y, ink: .point)
        #expect(canvas.character(column: 19, row: 2) == "\u{2808}")
        #expect(canvas.ink(column: 19, row: 2) == .point)
        // −33.87°S 151.21°E (Sydney): x = 66.24 → 66 (cell 33, left); y = 24.77 → 24 (cell row 6, top) → dot 1.
        let sydney = try #require(projection.dot(GeoPoint(latitude: -33.87, longitude: 151.21)))
        canvas.set(x: sydney.x, y: sydney.y, ink: .point)
        #expect(canvas.character(column: 33, row: 6) == "\u{2801}")
        // The bottom dots of a cell are braille dots 7 and 8.
        canvas.set(x: 0, y: 3, ink: .outline)
        canvas.set(x: 1, y: 3, ink: .outline)
        #expect(canvas.character(column: 0, row: 0) == "\u{28C0}")
        let lines = canvas.lines
        #expect(lines.count == 9)
        #expect(lines[2] == String(repeating: " ", count: 19) + "\u{2808}")
        // The edges of the world stay on the canvas.
        #expect(projection.dot(GeoPoint(latitude: -90, longitude: 180)).map { [$0.x, $0.y] } == [71, 35])
    }

    @Test func linesAreClippedToTheCanvasAndFillsKeepTheirHoles() {
        var canvas = BrailleCanvas(columns: 5, rows: 2)
        canvas.line(from: (-1000, 3.5), to: (1000, 3.5), ink: .outline)
        #expect((0..<10).allSatisfy { canvas.isSet(x: $0, y: 3) })
        #expect(!(0..<10).contains { canvas.isSet(x: $0, y: 2) })
        var filled = BrailleCanvas(columns: 10, rows: 5)
        let outer: [(x: Double, y: Double)] = [(0, 0), (20, 0), (20, 20), (0, 20), (0, 0)]
        let hole: [(x: Double, y: Double)] = [(8, 8), (12, 8), (12, 12), (8, 12), (8, 8)]
        filled.fill([outer, hole], every: 2, ink: .shape)
        #expect(filled.isSet(x: 2, y: 2))
        #expect(!filled.isSet(x: 3, y: 2), "every other dot across")
        #expect(!filled.isSet(x: 10, y: 10), "the hole stays empty")
    }

    // MARK: - Great circle

    @Test func theRouteMidpointIsOnTheGreatCircle() {
        let vienna = GeoPoint(latitude: 48.20253753662109, longitude: 16.36879539489746)
        let chistopol = GeoPoint(latitude: 55.3648, longitude: 50.6407)
        let middle = GreatCircle.point(0.5, from: vienna, to: chistopol)
        // On the plane through both ends and the Earth's centre…
        func vector(_ point: GeoPoint) -> [Double] {
            let (lat, lon) = (point.latitude * .pi / 180, point.longitude * .pi / 180)
            return [cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)]
        }
        let (a, b, m) = (vector(vienna), vector(chistopol), vector(middle))
        let normal = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        #expect(abs(normal[0] * m[0] + normal[1] * m[1] + normal[2] * m[2]) < 1e-12)
        // …and halfway along it.
        let total = Coordinates.distance(fromLatitude: vienna.latitude, longitude: vienna.longitude,
                                         toLatitude: chistopol.latitude, longitude: chistopol.longitude)
        let first = Coordinates.distance(fromLatitude: vienna.latitude, longitude: vienna.longitude,
                                         toLatitude: middle.latitude, longitude: middle.longitude)
        let second = Coordinates.distance(fromLatitude: middle.latitude, longitude: middle.longitude,
                                          toLatitude: chistopol.latitude, longitude: chistopol.longitude)
        #expect(abs(first - second) < 1e-6 && abs(first + second - total) < 1e-6)
        // The great circle bows north of the straight line on the map between two northern places.
        #expect(middle.latitude > (vienna.latitude + chistopol.latitude) / 2)
        let path = GreatCircle.path(from: vienna, to: chistopol, segments: 10)
        #expect(path.count == 11 && path.first == vienna)
        #expect(path.last == chistopol)
    }

    @Test func aRouteOverTheAntimeridianIsCutInTwo() {
        let path = GreatCircle.path(from: GeoPoint(latitude: 60, longitude: 170), to: GeoPoint(latitude: 60, longitude: -170), segments: 8)
        let pieces = GreatCircle.pieces(of: path)
        #expect(pieces.count == 2)
        #expect(pieces[0].allSatisfy { $0.longitude > 0 } && pieces[1].allSatisfy { $0.longitude < 0 })
    }

    // MARK: - Where records are

    @Test func coordinatesAreFoundByTheirFieldNames() throws {
        let dataset = try Self.generic("""
        [{"name": "a", "lat": 55.75, "lng": "37.62"},
         {"name": "b", "location": {"Latitude": -33.9, "Longitude": 151.2}},
         {"name": "c", "lat": 300, "lng": 10},
         {"name": "d"}]
        """)
        let locator = GeoLocator(dataset: dataset)
        #expect(locator.source == .latitudeLongitude(latitude: FieldPath("lat"), longitude: FieldPath("lng")))
        guard case let .point(point) = locator.locate(row: 0) else { Issue.record("no point"); return }
        #expect(point == GeoPoint(latitude: 55.75, longitude: 37.62))
        guard case .invalid = locator.locate(row: 2) else { Issue.record("300° is out of range"); return }
        guard case .none = locator.locate(row: 3) else { Issue.record("d has no coordinates"); return }

        let pairs = GeoLocator(dataset: try Self.generic(#"[{"name": "x", "latlng": [10, 20]}]"#))
        #expect(pairs.source == .pair(FieldPath("latlng")))
        guard case let .point(pair) = pairs.locate(row: 0) else { Issue.record("no point"); return }
        #expect(pair == GeoPoint(latitude: 10, longitude: 20), "latlng is [latitude, longitude]")

        let features = try Self.generic("""
        [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [20, 10]}, "properties": {"name": "p"}},
         {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 5]]}, "properties": {}}]
        """)
        let geometry = GeoLocator(dataset: features)
        #expect(geometry.source == .geometry(FieldPath("geometry")))
        guard case let .point(featurePoint) = geometry.locate(row: 0) else { Issue.record("no point"); return }
        #expect(featurePoint == GeoPoint(latitude: 10, longitude: 20), "GeoJSON is [longitude, latitude]")
        guard case let .shapes(shapes, _, _) = geometry.locate(row: 1) else { Issue.record("no line"); return }
        #expect(shapes.lines == [[GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 5, longitude: 10)]])
    }

    @Test func countriesAreJoinedToTheirOutlinesByAlpha3Code() throws {
        let countries = RealData.countries
        let locator = GeoLocator(dataset: countries, outlines: Self.outlines)
        #expect(locator.codeField == "alpha3Code")
        #expect(locator.source == .pair(FieldPath("latlng")))
        func outline(_ code: String) throws -> String? {
            let row = try #require(countries.row(forIdentity: code))
            guard case let .shapes(_, _, index) = locator.locate(row: row), let index else { return nil }
            return Self.outlines.outlines[index].name
        }
        #expect(try outline("NOR") == "Norway")
        #expect(try outline("FRA") == "France")
        #expect(try outline("UNK") == "Kosovo", "Kosovo is -99 in Natural Earth, joined by name")
        #expect(try outline("ALA") == nil, "Åland has no outline: its latlng point")
        guard case .point = locator.locate(row: try #require(countries.row(forIdentity: "ALA"))) else {
            Issue.record("Åland is drawn at its latlng"); return
        }
    }

    // MARK: - Pictures

    @Test func moscowsStationsSitWhereMoscowIs() throws {
        let stations = RealData.stations
        let picture = try MapPicture(results: ResultSet.all([stations]), outlines: Self.outlines, world: false, columns: 120, rows: 40)
        #expect(picture.drawn == 4037 && picture.withoutCoordinates == 0)
        let moscow = try IndependentData.stations().filter { ($0["cityTitle"] as? String) == "город Москва" }
        #expect(moscow.count > 50)
        // Moscow's box, projected by hand: x = (lon − west)·cos φ₀·scale, y = (north − lat)·scale.
        let projection = picture.projection
        let stretch = cos(projection.standardParallel * .pi / 180)
        func cell(latitude: Double, longitude: Double) -> (column: Int, row: Int) {
            (Int((longitude - projection.frame.west) * stretch * projection.scale) / 2, Int((projection.frame.north - latitude) * projection.scale) / 4)
        }
        let northWest = cell(latitude: 56.1, longitude: 37.2)
        let southEast = cell(latitude: 55.4, longitude: 38.1)
        for station in moscow {
            let point = try #require(station["point"] as? [String: Double])
            let (column, row) = cell(latitude: point["latitude"]!, longitude: point["longitude"]!)
            #expect((northWest.column...southEast.column).contains(column) && (northWest.row...southEast.row).contains(row))
            #expect(picture.canvas.ink(column: column, row: row) == .point)
        }
    }

    @Test func theLegendSaysWhatWasDrawnAndHow() throws {
        let stations = try IndependentData.stations()
        let latitudes = stations.compactMap { ($0["point"] as? [String: Double])?["latitude"] }
        let longitudes = stations.compactMap { ($0["point"] as? [String: Double])?["longitude"] }
        let picture = try MapPicture(results: ResultSet.all([RealData.stations]), outlines: Self.outlines, world: false, columns: 80, rows: 20)
        let text = String(format: "latitude %.2f°N to %.2f°N · longitude %.2f°W to %.2f°E",
                          latitudes.min()!, latitudes.max()!, -longitudes.min()!, longitudes.max()!)
        #expect(picture.extentText == text)
        #expect(picture.projectionText.hasPrefix("equirectangular projection (standard parallel 49°N)"))
        #expect(picture.canvas.columns <= 80 && picture.canvas.rows <= 20)
    }
}
