import Testing
@testable import AlmanacCore

/// The checks remember where each key was in the last station; stations that name their keys
/// in another order, lack one or add one must still be judged key by key, and ids repeated
/// across both lists must give one row with both directions.
@Suite struct StationKeyOrderTests {
    /// A station's members, in the order given.
    static func station(_ members: [(String, String)]) -> String {
        "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func members(id: Int?, title: String = "\"T\"", dropping dropped: String? = nil) -> [(String, String)] {
        var members: [(String, String)] = [
            ("countryTitle", "\"Россия\""), ("point", #"{"longitude": 1.5, "latitude": 2.5}"#), ("districtTitle", "\"\""),
            ("cityId", "7"), ("cityTitle", "\"город C\""), ("regionTitle", "\"\""),
        ]
        if let id { members.append(("stationId", "\(id)")) }
        members.append(("stationTitle", title))
        return members.filter { $0.0 != dropped }
    }

    static func extract(_ text: String) throws -> (records: [Int], warnings: [LoadWarning], directions: [Directions]) {
        var builder = JSONDocumentBuilder()
        _ = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try JSONParser.parse(bytes, source: "s.json", into: &builder)
        }
        let document = builder.finish()
        let extraction = try StationModel.extract(from: document, source: "s.json", cancellation: .never, twoThreadsFrom: .max)
        let ids = extraction.records.map { Int(document.value(at: $0)["stationId"]?.number ?? -1) }
        return (ids, extraction.warnings, try #require(extraction.extras[StationModel.Extras.self]).directions)
    }

    @Test func stationsInAnotherKeyOrderAreCheckedKeyByKey() throws {
        let usual = Self.members(id: 1)
        let stations = [
            Self.station(usual),
            Self.station(Self.members(id: 2).reversed()),
            Self.station(Self.members(id: 3, title: "5").shuffledByRule()),
            Self.station([("extra", "true")] + Self.members(id: 4)),
            Self.station(Self.members(id: 5, title: "null")),
            Self.station(usual.map { $0.0 == "stationId" ? ($0.0, "6") : $0 }),
        ]
        let text = #"{"citiesFrom": [{"cityId": 7, "stations": [\#(stations.joined(separator: ", "))]}]}"#
        let result = try Self.extract(text)
        #expect(result.records == [1, 2, 3, 4, 5, 6])
        #expect(result.warnings == [
            LoadWarning(record: 3, message: "stationTitle: expected a string, found a number"),
            LoadWarning(record: 5, message: "stationTitle is null"),
        ])
        #expect(result.directions == Array(repeating: .from, count: 6))
    }

    @Test func aStationMissingAKeyBetweenCompleteOnes() throws {
        let stations = [
            Self.station(Self.members(id: 1)),
            Self.station(Self.members(id: 2, dropping: "districtTitle")),
            Self.station(Self.members(id: 3, dropping: "point")),
            Self.station(Self.members(id: nil, title: "\"No id\"")),
            Self.station(Self.members(id: 4)),
        ]
        let text = #"{"citiesFrom": [{"cityId": 7, "stations": [\#(stations.joined(separator: ", "))]}]}"#
        let result = try Self.extract(text)
        #expect(result.records == [1, 2, 3, 4])
        #expect(result.warnings == [
            LoadWarning(record: 2, name: "T", message: "districtTitle is missing"),
            LoadWarning(record: 3, name: "T", message: "point is missing"),
            LoadWarning(record: 4, name: "No id", message: "skipped: it has no 'stationId'"),
        ])
    }

    @Test func idsRepeatedAcrossBothListsGiveOneRowWithBothDirections() throws {
        func city(_ ids: [Int], title: String = "\"T\"") -> String {
            #"{"cityId": 7, "stations": [\#(ids.map { Self.station(Self.members(id: $0, title: title)) }.joined(separator: ", "))]}"#
        }
        // A repeat's own warnings are dropped: its first occurrence made the row.
        let text = #"{"citiesFrom": [\#(city([30, 10_000_000_000, -4])), \#(city([10], title: "1"))], "#
            + #""citiesTo": [\#(city([-4, 10, 30], title: "1")), \#(city([10_000_000_000, 99, 30]))]}"#
        let result = try Self.extract(text)
        #expect(result.records == [30, 10_000_000_000, -4, 10, 99])
        #expect(result.directions == [[.from, .to], [.from, .to], [.from, .to], [.from, .to], .to])
        #expect(result.warnings == [LoadWarning(record: 4, message: "stationTitle: expected a string, found a number")])
    }

    /// Many ids, most repeated, against a plain dictionary: the table's probing must find every one.
    @Test func rowByIdTableAgreesWithADictionary() {
        var table = RowByIdTable(capacity: 3000)
        var reference: [Int: Int] = [:]
        var rows = 0
        for step in 0..<3000 {
            let id = (step * 7919) % 1000 * 1_048_576 - 500  // collisions in the low bits on purpose
            let expected = reference[id]
            #expect(table.row(of: id) == expected)
            #expect(table.rowOrInsert(id, row: rows) == expected)
            if expected == nil {
                reference[id] = rows
                rows += 1
            }
        }
        #expect(rows == 1000)
    }
}

extension Array {
    /// A fixed reordering (every third element first, then the rest), not the source order.
    func shuffledByRule() -> [Element] {
        enumerated().filter { $0.offset % 3 == 2 }.map(\.element) + enumerated().filter { $0.offset % 3 != 2 }.map(\.element)
    }
}
