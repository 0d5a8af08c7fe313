import Foundation
import Testing

/// A GeoJSON FeatureCollection loads as the records its Features' properties are — named,
/// searched and shown by them — while near, within and map still place each by its geometry;
/// `export FILE.geojson` loads back as the records it was written from.
@Suite("GeoJSON files load as their properties")
struct GeoJSONLoadTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    /// Five cities as points (Munich outside Austria), a lake as a polygon with a Feature id,
    /// and a point in Vorarlberg whose properties are null.
    func cities() throws -> String {
        try home.write(#"{"type": "FeatureCollection", "features": ["# + features().joined(separator: ",\n") + "]}", to: "cities.geojson")
    }

    func features() -> [String] {
        func point(_ name: String, _ population: Int, _ longitude: Double, _ latitude: Double) -> String {
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [\#(longitude), \#(latitude)]}, "#
                + #""properties": {"name": "\#(name)", "population": \#(population)}}"#
        }
        let features = [point("Vienna", 1_900_000, 16.37, 48.21), point("Graz", 290_000, 15.44, 47.07),
                        point("Linz", 207_000, 14.29, 48.31), point("Salzburg", 155_000, 13.04, 47.8),
                        point("Munich", 1_500_000, 11.58, 48.14),
                        #"{"type": "Feature", "id": "lake", "geometry": {"type": "Polygon", "coordinates": "#
                            + #"[[[16.6, 47.7], [16.9, 47.7], [16.9, 47.95], [16.6, 47.95], [16.6, 47.7]]]}, "properties": {"name": "Neusiedler See"}}"#,
                        #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [9.74, 47.5]}, "properties": null}"#]
        return features
    }

    func csv(_ commands: [String]) throws -> String {
        try home.succeed(["load cities from \(try cities())", "use cities"] + commands, options: ["--no-rc"], format: "csv")
    }

    @Test("the properties name the records; the geometry is a field beside them")
    func propertiesAreTheFields() throws {
        let fields = try home.succeed(["load cities from \(try cities())", "use cities", "fields"], options: ["--no-rc"])
        #expect(fields.hasSuffix("names the records: name; search and show also look at id\n"), "\(fields)")
        #expect(try csv(["columns name, population"]) == "name,population\nVienna,1900000\nGraz,290000\nLinz,207000\nSalzburg,155000\n"
            + "Munich,1500000\nNeusiedler See,\n,\n")
        #expect(try csv(["group geometry.type"]) == "geometry.type,count,percent\nPoint,6,85.7\nPolygon,1,14.3\n")
    }

    @Test("search, show and filter find records by their properties; show finds a Feature's id")
    func searchAndShow() throws {
        #expect(try csv(["search vienna", "columns name, population"]) == "name,population\nVienna,1900000\n")
        #expect(try csv(["show Vienna"]) == "name,population,geometry.type,geometry.coordinates\nVienna,1900000,Point,\"[16.37,48.21]\"\n")
        #expect(try csv(["show lake"]) == "id,name,geometry.type,geometry.coordinates\n"
            + "lake,Neusiedler See,Polygon,\"[[[16.6,47.7],[16.9,47.7],[16.9,47.95],[16.6,47.95],[16.6,47.7]]]\"\n")
        #expect(try csv(["filter population > 1000000", "columns name"]) == "name,population\nVienna,1900000\nMunich,1500000\n")
    }

    @Test("near measures from a record's point: haversine, mean Earth radius 6,371.0088 km")
    func nearByName() throws {
        // By hand: Vienna–Graz 144.6 km, Vienna–Linz 154.4; Salzburg–Linz 108.8, –Munich 115.1, –Graz 197.9.
        #expect(try csv(["near Vienna within 150 km", "columns name, distance"]) == "name,distance\nGraz,144.6\n")
        #expect(try csv(["near Salzburg within 150 km", "columns name, distance"]) == "name,distance\nLinz,108.8\nMunich,115.1\n")
    }

    @Test("within places the points, a null-properties one too; a polygon is no point")
    func withinCountry() throws {
        #expect(try csv(["within Austria", "columns name"]) == "name\nVienna\nGraz\nLinz\nSalzburg\n\n")
        #expect(try csv(["within Germany", "columns name"]) == "name\nMunich\n")
    }

    @Test("an export of the loaded records writes the same FeatureCollection back")
    func exportWritesTheFeaturesBack() throws {
        let file = home.root + "/again.geojson"
        _ = try csv(["export \(file)"])
        let written = try #require(try MapCommandTests.json(file) as? [String: Any])
        let source = try #require(try MapCommandTests.json(home.root + "/cities.geojson") as? [String: Any])
        var features = try #require(source["features"] as? [[String: Any]])
        // The lake's id is one of its properties now; null properties are none.
        features[5]["properties"] = ["id": "lake", "name": "Neusiedler See"]
        features[5]["id"] = nil
        features[6]["properties"] = [String: Any]()
        #expect(NSArray(array: written["features"] as? [[String: Any]] ?? []).isEqual(to: features), "\(written)")
    }

    /// GeoJSON text sequences (RFC 8142: each Feature after a record separator, 0x1E, on a line
    /// of its own; `ogr2ogr -f GeoJSONSeq` writes them) and NDJSON of Features read as the
    /// FeatureCollection of the same Features does, by extension or, without one, by the separator.
    @Test("lines of Features load as the FeatureCollection of them does", arguments: [
        ("cities.geojsons", "\u{1E}"), ("cities.geojsonl", ""), ("cities.ndjson", ""), ("cities.txt", "\u{1E}"),
    ])
    func linesOfFeatures(file: String, separator: String) throws {
        let path = try home.write(features().map { separator + $0 + "\n" }.joined(), to: file)
        func lines(_ commands: [String]) throws -> String {
            try home.succeed(["load cities from \(path)", "use cities"] + commands, options: ["--no-rc"], format: "csv")
        }
        #expect(try lines(["columns name, population"]) == "name,population\nVienna,1900000\nGraz,290000\nLinz,207000\nSalzburg,155000\n"
            + "Munich,1500000\nNeusiedler See,\n,\n")
        #expect(try lines(["within Austria", "columns name"]) == "name\nVienna\nGraz\nLinz\nSalzburg\n\n")
        #expect(try lines(["show lake"]) == "id,name,geometry.type,geometry.coordinates\n"
            + "lake,Neusiedler See,Polygon,\"[[[16.6,47.7],[16.9,47.7],[16.9,47.95],[16.6,47.95],[16.6,47.7]]]\"\n")
    }

    /// The records are the Features' nodes copied (not written out and parsed again): a key the
    /// properties repeat keeps its last value and warns for its record, as in any file.
    @Test("a repeated property keeps its last value, with the record's warning")
    func repeatedProperty() throws {
        let path = try home.write(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": null, "#
            + #""properties": {"name": "a", "k": 1, "k": 2}}, {"type": "Feature", "geometry": null, "properties": {"name": "b", "k": 3}}]}"#,
            to: "repeats.geojson")
        let result = try PipeRun.run(["--no-rc", "--format", "csv", "-c", "load r from \(path)", "-c", "use r", "-c", "columns name, k"],
                                     environment: home.environment(), directory: home.root, timeout: .seconds(60))
        #expect(result.stdout == "name,k\na,2\nb,3\n", "\(result)")
        #expect(result.stderr.lines == ["r: 1 warning — record 1 (a): the key 'k' appears more than once; the last value is kept"], "\(result)")
    }
}
