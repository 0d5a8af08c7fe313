import Foundation
import Testing

/// `map` through pipes and on a terminal: braille within its size, a legend computed from the
/// data files, a golden picture, colour only on a colour terminal, and GeoJSON that a GIS
/// tool would accept (checked here against the files, read independently).
@Suite("map")
struct MapCommandTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ commands: [String], format: String? = nil) throws -> PipeResult {
        try home.run(commands, format: format)
    }

    func succeed(_ commands: [String], format: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try home.succeed(commands, format: format, sourceLocation: sourceLocation)
    }

    static func json(_ path: String) throws -> Any {
        let data = try #require(FileManager.default.contents(atPath: path))
        return try JSONSerialization.jsonObject(with: data)
    }

    /// Every distinct station of stations.json, by id.
    static func stations() throws -> [Int: [String: Any]] {
        let root = try #require(try json(DataFolder.realFile("stations")) as? [String: Any])
        var stations: [Int: [String: Any]] = [:]
        for list in ["citiesFrom", "citiesTo"] {
            for city in root[list] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    if let id = station["stationId"] as? Int, stations[id] == nil { stations[id] = station }
                }
            }
        }
        return stations
    }

    static func isBraille(_ scalar: Unicode.Scalar) -> Bool { (0x2800...0x28FF).contains(scalar.value) || scalar == " " }

    @Test("the stations map fits its size and its legend says what the file holds")
    func stationsInAPipe() throws {
        let output = try succeed(["use stations", "map --size 60x20"]).lines
        let map = output.dropLast(2)
        // The stations span four times as much longitude as latitude: 120 dots wide, 30 high.
        #expect(map.count == 8, "\(output.joined(separator: "\n"))")
        #expect(map.allSatisfy { $0.unicodeScalars.count <= 60 && $0.unicodeScalars.allSatisfy(Self.isBraille) })
        #expect(map.contains { $0.unicodeScalars.contains { $0.value > 0x2800 } })
        let points = try Self.stations().values.compactMap { $0["point"] as? [String: Double] }
        let latitudes = points.compactMap { $0["latitude"] }
        let longitudes = points.compactMap { $0["longitude"] }
        #expect(output[output.count - 2] == String(format: "%@ stations drawn, none without coordinates · latitude %.2f°N to %.2f°N · longitude %.2f°W to %.2f°E",
                                                   "4,037", latitudes.min()!, latitudes.max()!, -longitudes.min()!, longitudes.max()!))
        #expect(output.last?.hasPrefix("equirectangular projection (standard parallel 49°N), one column ≈ ") == true, "\(output.last ?? "")")
    }

    @Test("a small map of Europe's countries is the golden picture")
    func golden() throws {
        let output = try succeed(["use countries", "filter region = Europe", "map --size 48x16"], format: nil)
        // The filter lists the countries first; the map starts at the first line of braille.
        let lines = output.components(separatedBy: "\n")
        let start = lines.firstIndex { !$0.isEmpty && $0.unicodeScalars.allSatisfy(Self.isBraille) } ?? lines.count
        let map = lines[start...].joined(separator: "\n")
        let path = PackageRoot.path + "/Tests/Fixtures/golden/map-europe-48x16.txt"
        if ProcessInfo.processInfo.environment["ALMANAC_UPDATE_GOLDEN"] == "1" {
            try map.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        #expect(map == golden, "ALMANAC_UPDATE_GOLDEN=1 rewrites the golden file after a deliberate change\n\(map)")
    }

    @Test("a bad size and a dataset without coordinates are refused clearly")
    func errors() throws {
        let size = try run(["use stations", "map --size 10by4"])
        #expect(size.status == 1 && size.stderr.contains("--size takes COLUMNSxROWS, from 4x2 to 1000x500 — not '10by4'"), "\(size)")
        let species = try run(["use species", "map"])
        #expect(species.status == 1, "\(species)")
        #expect(species.stderr.contains("none of these 37 species has coordinates — map reads fields named lat/latitude and lon/lng/longitude"),
                "\(species)")
    }

    @Test("GeoJSON of the stations: a Feature per station, [longitude, latitude], properties the record")
    func stationsGeoJSON() throws {
        let output = try succeed(["use stations", "map"], format: "json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(root["type"] as? String == "FeatureCollection")
        let features = try #require(root["features"] as? [[String: Any]])
        let stations = try Self.stations()
        #expect(features.count == stations.count)
        for feature in features {
            #expect(feature["type"] as? String == "Feature")
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            let position = try #require(geometry["coordinates"] as? [Double])
            let properties = try #require(feature["properties"] as? [String: Any])
            let station = try #require(stations[properties["stationId"] as? Int ?? -1])
            let point = try #require(station["point"] as? [String: Double])
            #expect(position == [point["longitude"]!, point["latitude"]!], "longitude first")
            #expect((-180...180).contains(position[0]) && (-90...90).contains(position[1]))
            #expect(properties["stationTitle"] as? String == station["stationTitle"] as? String)
        }
    }

    @Test("GeoJSON of the countries: outlines from world.geojson, else the latlng point, else null")
    func countriesGeoJSON() throws {
        let output = try succeed(["use countries", "map"], format: "json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        let world = try #require(try Self.json(DataFolder.realFolder + "/world.geojson") as? [String: Any])
        var outlines: [String: [String: Any]] = [:]
        for feature in world["features"] as? [[String: Any]] ?? [] {
            if let code = (feature["properties"] as? [String: Any])?["iso_a3"] as? String { outlines[code] = feature["geometry"] as? [String: Any] }
        }
        let countries = try #require(try Self.json(DataFolder.realFile("countries")) as? [[String: Any]])
        #expect(features.count == countries.count)
        var kinds: [String: Int] = [:]
        for (feature, country) in zip(features, countries) {
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(properties["alpha3Code"] as? String == country["alpha3Code"] as? String, "in the results' order")
            let code = country["alpha3Code"] as? String ?? ""
            let latlng = country["latlng"] as? [Double] ?? []
            guard let geometry = feature["geometry"] as? [String: Any] else {
                #expect(latlng.count < 2 && outlines[code] == nil, "\(code) has a null geometry only without coordinates")
                kinds["null", default: 0] += 1
                continue
            }
            let type = try #require(geometry["type"] as? String)
            kinds[type, default: 0] += 1
            if let outline = outlines[code] {
                #expect(NSDictionary(dictionary: geometry).isEqual(to: outline), "\(code)'s outline as world.geojson has it")
                let polygons = type == "Polygon" ? [geometry["coordinates"] as! [[[Double]]]] : geometry["coordinates"] as! [[[[Double]]]]
                for ring in polygons.flatMap({ $0 }) {
                    #expect(ring.first == ring.last, "closed rings")
                    #expect(ring.allSatisfy { (-180...180).contains($0[0]) && (-90...90).contains($0[1]) })
                }
            } else if type == "Point" {
                #expect(geometry["coordinates"] as? [Double] == [latlng[1], latlng[0]], "\(code): [longitude, latitude] from [lat, lng]")
            }
        }
        #expect(kinds["null"] == countries.filter { ($0["latlng"] as? [Double] ?? []).count < 2 }.count)
        #expect((kinds["Polygon"] ?? 0) + (kinds["MultiPolygon"] ?? 0) >= 170, "\(kinds)")
    }

    @Test("export FILE.geojson writes what map prints under --format json")
    func exportGeoJSON() throws {
        let printed = try succeed(["use countries", "filter region = Europe", "map"], format: "json")
        _ = try succeed(["use countries", "filter region = Europe", "export europe.geojson"])
        let file = try #require(home.read(home.root + "/europe.geojson"))
        #expect(file == printed.components(separatedBy: "\n]\n").last!, "the same FeatureCollection")
    }

    @Test("on a colour terminal points are red; at 80 and 200 columns the map fills the width")
    func terminal() throws {
        for columns in [80, 200] {
            let session = try PseudoTerminalSession(environment: home.environment().without("NO_COLOR"), rows: 40, columns: columns)
            try session.waitForPrompt()
            try session.enter("use stations", prompt: "stations> ")
            let shown = try session.enter("map")
            #expect(shown.contains("4,037 stations drawn, none without coordinates"), "\(shown.visible)")
            let screen = session.screen
            let mapLines = screen.lines.filter { line in !line.isEmpty && line.unicodeScalars.allSatisfy(Self.isBraille) }
            let widest = mapLines.map { $0.unicodeScalars.count }.max() ?? 0
            #expect(widest > columns - 12 && widest < columns, "\(columns) columns: the map is \(widest) wide")
            #expect(session.raw.count > 0 && String(decoding: session.raw, as: UTF8.self).contains("\u{1B}[1;31m"), "points in bold red")
            try session.send(Key.ctrlD)
            #expect(try session.waitForExit() == 0)
        }
        let piped = try succeed(["use stations", "map"])
        #expect(!piped.contains("\u{1B}"), "no colour into a pipe")
    }

    @Test("on an 80 × 24 terminal the world map and a trip's map fit the screen: no pager, no legend line wrapped")
    func fitsASmallTerminal() throws {
        let paged = home.root + "/paged.txt"
        let environment = home.environment().with("ALMANAC_PAGER", "cat > '\(paged)'")
        let session = try PseudoTerminalSession(environment: environment, rows: 24, columns: 80)
        try session.waitForPrompt()
        try session.enter("use stations; count", prompt: "stations> ")
        for command in ["map world", "map", "trip from 9864 to 9362 on 2099-12-01 --map"] {
            try session.enter(command)
            #expect(home.read(paged) == nil, "\(command) went to the pager")
            // What the screen shows between the command and the next prompt.
            let screen = session.screen.lines
            let start = try #require(screen.lastIndex { $0 == "stations> " + command })
            let lines = Array(screen[(start + 1)...].prefix { !$0.hasPrefix("stations>") })
            #expect(lines.count <= 21, "\(command): \(lines.count) lines")
            #expect(lines.allSatisfy { $0.unicodeScalars.count < 80 }, "\(command): a line reaches the last column\n\(lines.joined(separator: "\n"))")
            #expect(lines.contains { $0.hasPrefix("equirectangular projection") }, "\(lines.joined(separator: "\n"))")
        }
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }
}

/// Generic datasets: coordinates found by their field names, and GeoJSON loaded as records.
@Suite("map of a generic dataset")
struct GenericMapTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func run(_ commands: [String], format: String? = nil) throws -> PipeResult {
        try home.run(commands, format: format)
    }

    @Test("lat and lng fields are found; a record without them is counted, one out of range too")
    func latitudeLongitudeFields() throws {
        let file = try home.write("""
        [{"name": "Reykjavík", "lat": 64.15, "lng": -21.94},
         {"name": "Wellington", "lat": "-41.29", "lng": "174.78"},
         {"name": "Nowhere"},
         {"name": "Broken", "lat": 123, "lng": 0}]
        """, to: "cities.json")
        let result = try run(["load cities from \(file)", "use cities", "map --size 40x12"])
        #expect(result.status == 0, "\(result)")
        let legend = result.stdout.lines.suffix(2)
        #expect(legend.first == "2 records drawn, 2 without coordinates (1 out of range or unreadable) · "
            + "latitude 41.29°S to 64.15°N · longitude 21.94°W to 174.78°E", "\(result)")
        let json = try run(["load cities from \(file)", "use cities", "map"], format: "json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let geometries = (root["features"] as? [[String: Any]] ?? []).map { $0["geometry"] as? [String: Any] }
        #expect(geometries.count == 4)
        #expect(geometries[0]?["coordinates"] as? [Double] == [-21.94, 64.15])
        #expect(geometries[1]?["coordinates"] as? [Double] == [174.78, -41.29], "numbers written as text read as numbers")
        #expect(geometries[2] == nil && geometries[3] == nil, "null geometries")
    }

    @Test("a GeoJSON FeatureCollection loads as its properties and maps as its geometries")
    func featureCollection() throws {
        let world = DataFolder.realFolder + "/world.geojson"
        let source = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: world))) as? [String: Any])
        let features = try #require(source["features"] as? [[String: Any]])
        let european = features.filter { ($0["properties"] as? [String: Any])?["continent"] as? String == "Europe" }
        let result = try run(["load world from \(world)", "use world", "count", "filter continent = Europe", "map --size 60x16"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.lines.first == String(features.count))
        #expect(result.stdout.lines.suffix(2).first?.hasPrefix("\(european.count) records drawn, none without coordinates") == true, "\(result)")
        let json = try run(["load world from \(world)", "use world", "map"], format: "json")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let written = try #require(root["features"] as? [[String: Any]])
        #expect(NSArray(array: written).isEqual(to: features), "features come back as they were")
    }
}
