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

    @Test func deduplicatingOnTwoThreadsGivesWhatOneGives() throws {
        var builder = JSONDocumentBuilder()
        _ = try Array(Self.text.utf8).withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try JSONParser.parse(bytes, source: "s.json", into: &builder)
        }
        let document = builder.finish()
        let root = try #require(document.roots.first)
        let lists = [CityList(node: try #require(document.member("citiesFrom", of: root)), direction: .from),
                     CityList(node: try #require(document.member("citiesTo", of: root)), direction: .to)]
        let scanner = StationScanner(document: document, specs: StationModel.fieldSpecs, nameField: StationModel.nameField)
        var scan = StationScanner.Scan()
        scanner.scan(lists, from: .start(of: lists), before: .max, into: &scan, cancellation: .never)
        let one = StationDeduplication([scan], twoThreadsFrom: .max)
        let two = StationDeduplication([scan], twoThreadsFrom: 0)
        #expect(one.records == two.records)
        #expect(one.directions == two.directions)
        #expect(one.cityOfRow == two.cityOfRow)
        #expect(one.warnings == two.warnings)
        // Stations 1–3 of each round: a title that is not a string only warns, and the
        // entries without a numeric id (or repeating one) take no row.
        let ids = one.records.map { Int(document.value(at: $0)["stationId"]?.number ?? -1) }
        let expected: [Int] = (0..<40).flatMap { round -> [Int] in [round * 100 + 1, round * 100 + 2, round * 100 + 3] }
        #expect(ids.sorted() == expected)
    }

    @Test func theIdTableGrowsPastItsCapacityAndKeepsEveryRow() {
        var table = RowByIdTable(capacity: 1)
        for id in 0..<10_000 { #expect(table.rowOrInsert(id * 7919, row: id) == nil) }
        #expect((0..<10_000).allSatisfy { table.row(of: $0 * 7919) == $0 })
        #expect(table.rowOrInsert(7919 * 5, row: 99) == 5)
        #expect(table.row(of: 1) == nil)
    }
}
