import Foundation
import Testing
@testable import AlmanacCore

/// `describe` and `group` number an object no member names by its JSON text written into one
/// reused buffer (`ValueNumbering`), and find the naming member with keys prepared once. The
/// values and counts must be those of the ordinary reading: `ObjectIdentity.text` per row.
@Suite struct ObjectNumberingTests {
    let scratch = Scratch()

    /// Each distinct text with its count, in order of first appearance, read row by row.
    static func ordinary(_ field: String, in dataset: Dataset) -> [(text: String, count: Int)] {
        let path = dataset.compile(FieldPath(field))
        var order: [String] = []
        var counts: [String: Int] = [:]
        for row in 0..<dataset.count {
            dataset.forEachWholeValue(of: path, row: row) { value in
                guard case let .node(node) = value, dataset.document.kind(at: node) == .object,
                      let text = ObjectIdentity.text(of: node, in: dataset.document) else { return }
                if counts[text] == nil { order.append(text) }
                counts[text, default: 0] += 1
            }
        }
        return order.map { ($0, counts[$0]!) }
    }

    /// The most common first, equal counts by their text's bytes (as `describe` ranks, and a
    /// table's `ORDER BY n DESC, v COLLATE "C"`).
    static func ranked(_ values: [(text: String, count: Int)], limit: Int) -> [String] {
        values.sorted { $0.count != $1.count ? $0.count > $1.count : Array($0.text.utf8).lexicographicallyPrecedes(Array($1.text.utf8)) }
            .prefix(limit).map { "\($0.text)=\($0.count)" }
    }

    func profile(_ field: String, of dataset: Dataset, common: Int) throws -> FieldProfile {
        try #require(try Describe.run(.all([dataset]), fields: [field], common: common).first?.profile)
    }

    @Test("objects with escapes, lists, number literals and names: describe's values and counts are ObjectIdentity.text's")
    func unnamedObjectsAreTheirJSONText() throws {
        let things = [
            #"{"a": "q\"t", "b": [1.50, {"c": null}]}"#,
            #"{"a": "tab\there\u0001", "ё": "ещё"}"#,
            #"{"a": "q\"t", "b": [1.50, {"c": null}]}"#,
            #"{"a": 1e3, "b": true}"#,
            #"{}"#,
            #"{"title": "Named", "x": 1}"#,
            #"{"title": "Named", "x": 2}"#,
            #"{"name": "n/a", "x": 3}"#,
            #"{"id": 7, "x": 4}"#,
            #"{"a": 1e3, "b": true}"#,
            #"{"a": 1e3, "b": true}"#,
        ]
        let records = things.enumerated().map { #"{"n": \#($0.offset), "thing": \#($0.element)}"# }
        let file = scratch.file("objects.json", "[" + records.joined(separator: ",\n") + "]")
        let dataset = try DatasetLoader().load(LoadRequest(name: "objects", source: .file(path: file), model: GenericModel.self),
                                               progress: LoadProgress(), cancellation: .never)
        let profile = try profile("thing", of: dataset, common: 10)
        // Written by hand: keys in source order, numbers as written, escapes as RFC 8259 has them;
        // equal counts by their bytes ("7" and "N" before "{").
        #expect(profile.common.map { "\($0.value)=\($0.count)" } == [
            #"{"a":1e3,"b":true}=3"#,
            "Named=2",
            #"{"a":"q\"t","b":[1.50,{"c":null}]}=2"#,
            "7=1",
            #"{"a":"tab\there\u0001","ё":"ещё"}=1"#,
            #"{"name":"n/a","x":3}=1"#,
        ])
        #expect(profile.present == 10 && profile.absent == 1 && profile.distinct == 6)
        #expect(profile.common.map { "\($0.value)=\($0.count)" } == Self.ranked(Self.ordinary("thing", in: dataset), limit: 10))
    }

    @Test("describe point of the bundled stations: distinct count and common values as ObjectIdentity.text reads each row")
    func stationPointsAsTheOrdinaryReading() throws {
        let stations = RealData.stations
        let expected = Self.ordinary("point", in: stations)
        let profile = try profile("point", of: stations, common: 5)
        #expect(profile.distinct == expected.count)
        #expect(profile.present == expected.reduce(0) { $0 + $1.count })
        #expect(profile.common.map { "\($0.value)=\($0.count)" } == Self.ranked(expected, limit: 5))
        // Independently of almanac's reader: the distinct points of the file by their numbers.
        let root = try #require(RawData.object("stations.json") as? [String: Any])
        var points = Set<String>()
        var ids = Set<Int>()
        for key in ["citiesFrom", "citiesTo"] {
            for city in root[key] as? [[String: Any]] ?? [] {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    guard let id = station["stationId"] as? Int, ids.insert(id).inserted,
                          let point = station["point"] as? [String: Double], !point.isEmpty else { continue }
                    points.insert("\(point["latitude"].map { "\($0)" } ?? "-") \(point["longitude"].map { "\($0)" } ?? "-")")
                }
            }
        }
        #expect(profile.distinct == points.count)
    }
}
