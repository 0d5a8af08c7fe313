import Foundation
import Testing
@testable import AlmanacCore

/// A GeoJSON FeatureCollection loads as the records its Features' properties are, with the
/// geometry beside them; written back as GeoJSON, the geometry is the Feature's again.
@Suite struct FeatureRecordsTests {
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
