import Foundation
import Testing
@testable import AlmanacCore

/// A GeoJSON FeatureCollection loads as the records its Features' properties are, with the
/// geometry beside them; written back as GeoJSON, the geometry is the Feature's again.
@Suite struct FeatureRecordsTests {
    static func document(_ text: String) throws -> JSONDocument {
        var builder = JSONDocumentBuilder()
        _ = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try JSONParser.parse(bytes, source: "test.geojson", into: &builder)
        }
        return builder.finish()
    }

    static func records(_ text: String) throws -> String? {
        let rewritten = try FeatureRecords.records(of: try document(text), source: "test.geojson", cancellation: .never)
        return rewritten.map { JSONWriter.string($0.value(at: $0.roots[0])) }
    }

    @Test func aFeaturesPropertiesAreItsFieldsWithItsGeometryAndIdBeside() throws {
        let text = """
        {"type": "FeatureCollection", "features": [
         {"type": "Feature", "geometry": {"type": "Point", "coordinates": [16.37, 48.210]}, "properties": {"name": "Vienna", "population": 1900000}},
         {"type": "Feature", "id": 7, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}, "properties": {"name": "box"}},
         {"type": "Feature", "geometry": {"type": "Point", "coordinates": [9.74, 47.5]}, "properties": null},
         {"type": "Feature", "id": "x", "geometry": null, "properties": {"id": "own", "geometry": "drawn by hand"}},
         {"type": "Feature"},
         "not a feature"]}
        """
        #expect(try Self.records(text) == """
        [{"name":"Vienna","population":1900000,"geometry":{"type":"Point","coordinates":[16.37,48.210]}},\
        {"id":7,"name":"box","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},\
        {"geometry":{"type":"Point","coordinates":[9.74,47.5]}},\
        {"id":"own","geometry":"drawn by hand"},\
        {},\
        "not a feature"]
        """)
    }

    @Test func onlyAFeatureCollectionIsRewritten() throws {
        #expect(try Self.records(#"[{"type": "Feature", "properties": {"name": "a"}}]"#) == nil)
        #expect(try Self.records(#"{"type": "Feature", "features": []}"#) == nil)
        #expect(try Self.records(#"{"type": "FeatureCollection", "features": []}"#) == "[]")
    }

    @Test func aRecordsOwnGeometryIsPlacedBeforeItsCountrysOutline() throws {
        let dataset = try MapTests.generic("""
        [{"name": "marker", "iso_a3": "AUT", "geometry": {"type": "Point", "coordinates": [1, 2]}},
         {"name": "Austria", "iso_a3": "AUT", "geometry": null}]
        """)
        let locator = GeoLocator(dataset: dataset, outlines: MapTests.outlines)
        guard case let .point(point) = locator.locate(row: 0) else { Issue.record("no point"); return }
        #expect(point == GeoPoint(latitude: 2, longitude: 1))
        guard case let .shapes(_, node, outline) = locator.locate(row: 1) else { Issue.record("no outline"); return }
        #expect(node == nil && outline.map { MapTests.outlines.outlines[$0].name } == "Austria")
    }

    @Test func aGeometryFieldIsWrittenAsTheFeaturesGeometryNotAlsoAsAProperty() throws {
        let dataset = try MapTests.generic("""
        [{"name": "a", "geometry": {"type": "Point", "coordinates": [16.37, 48.21]}},
         {"name": "b", "geometry": null},
         {"name": "c", "geometry": {"type": "Point", "coordinates": "unreadable"}},
         {"name": "d"}]
        """)
        #expect(try GeoJSONWriter.featureCollection(ResultSet.all([dataset]), outlines: nil) == """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[16.37,48.21]},"properties":{"name":"a"}},
        {"type":"Feature","geometry":null,"properties":{"name":"b"}},
        {"type":"Feature","geometry":null,"properties":{"name":"c","geometry":{"type":"Point","coordinates":"unreadable"}}},
        {"type":"Feature","geometry":null,"properties":{"name":"d"}}
        ]}
        """)
    }
}
