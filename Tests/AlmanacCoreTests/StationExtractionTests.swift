import Testing
@testable import AlmanacCore

/// Stations are scanned on two threads, then de-duplicated in order: the records, their
/// directions and every warning (with its entry number) must be those of one scan.
@Suite struct StationExtractionTests {
    /// Cities with every kind of fault, in both lists, repeated so that a fault falls in each half.
    static let text: String = {
        func station(_ id: String, _ title: String, extra: String = "") -> String {
            #"{"stationId": \#(id), "stationTitle": \#(title), "cityId": 1, "cityTitle": "C", "districtTitle": "", "regionTitle": "", "countryTitle": "Россия", "point": {"longitude": 1, "latitude": 2}\#(extra)}"#
        }
        var cities: [String] = []
        for round in 0..<40 {
            let base = round * 100
            cities.append(#"{"cityId": \#(round), "cityTitle": "City \#(round)", "stations": [\#(station("\(base + 1)", "\"One\"")), \#(station("\(base + 2)", "\"Two\""))]}"#)
            cities.append("42")  // not a city object
            cities.append(#"{"cityId": "x", "stations": [7, \#(station("\(base + 3)", "5")), \#(station("\"no\"", "\"Bad id\""))]}"#)
            // A duplicate of an earlier station (a second direction or a repeat), and one whose
            // first occurrence failed its checks.
            cities.append(#"{"stations": [\#(station("\(base + 1)", "\"One again\"")), \#(station("\(max(0, base - 100) + 3)", "\"Three, now valid\""))]}"#)
            cities.append(#"{"cityId": 9, "stations": {"not": "a list"}}"#)
        }
        let half = cities.count / 2
        return #"{"citiesFrom": [\#(cities[..<half].joined(separator: ",\n"))], "citiesTo": [\#(cities[half...].joined(separator: ",\n")), \#(cities[0])]}"#
    }()

    static func extract(twoThreadsFrom: Int) throws -> (Extraction, StationModel.Extras) {
        var builder = JSONDocumentBuilder()
        _ = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try JSONParser.parse(bytes, source: "s.json", into: &builder)
        }
        let extraction = try StationModel.extract(from: builder.finish(), source: "s.json", cancellation: .never, twoThreadsFrom: twoThreadsFrom)
        return (extraction, try #require(extraction.extras[StationModel.Extras.self]))
    }

    @Test func twoThreadsGiveWhatOneGives() throws {
        let (one, oneExtras) = try Self.extract(twoThreadsFrom: .max)
        let (two, twoExtras) = try Self.extract(twoThreadsFrom: 0)
        #expect(one.records == two.records)
        #expect(one.warnings == two.warnings)
        #expect(oneExtras.directions == twoExtras.directions)
        #expect(oneExtras.cityOfRow == twoExtras.cityOfRow)
        #expect(oneExtras.cities.map(\.node) == twoExtras.cities.map(\.node))
        // The faults are all there, in both halves, numbered from the start of the file.
        #expect(one.warnings.count > 100)
        #expect(one.warnings.contains { $0.message.contains("entry skipped: expected a city object") })
        #expect(one.warnings.contains { $0.message.contains("skipped: expected a station object") && ($0.record ?? 0) > 200 })
        #expect(one.warnings.contains { $0.message.contains("stationTitle: expected a string") })
        // Stations listed under both directions get both.
        #expect(oneExtras.directions.contains([.from, .to]))
    }
}
