import Testing
@testable import AlmanacCore

/// The extraction against a plain reading of its rules (each spec looked up by name in each
/// station, ids de-duplicated in a Dictionary), on stations whose keys are shuffled, dropped,
/// added, mistyped and repeated at random.
@Suite struct StationReferenceTests {
    static func text(seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        func station(_ id: Int) -> String {
            var members: [(String, String)] = [
                ("countryTitle", "\"Россия\""), ("point", #"{"longitude": 1.5, "latitude": 2.5}"#), ("districtTitle", "\"\""),
                ("cityId", "7"), ("cityTitle", "\"город C\""), ("regionTitle", "\"\""), ("stationId", "\(id)"), ("stationTitle", "\"S\(id)\""),
            ]
            switch Int.random(in: 0..<40, using: &random) {
            case 0: members.shuffle(using: &random)
            case 1: members.remove(at: Int.random(in: 0..<members.count, using: &random))
            case 2: members[Int.random(in: 0..<members.count, using: &random)].1 = ["null", "5", "\"x\"", "[]", "true"].randomElement(using: &random)!
            case 3: members.insert(("extra", "1"), at: Int.random(in: 0...members.count, using: &random))
            case 4: members.append((members[0].0, "\"again\""))
            default: break
            }
            return "{" + members.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }
        func city() -> String {
            let stations = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Int.random(in: 0..<30, using: &random) == 0 ? "7" : station(Int.random(in: 1...400, using: &random))
            }
            return Int.random(in: 0..<50, using: &random) == 0 ? "\"no city\"" : #"{"cityId": 7, "stations": [\#(stations.joined(separator: ", "))]}"#
        }
        let from = (0..<300).map { _ in city() }.joined(separator: ",\n")
        let to = (0..<300).map { _ in city() }.joined(separator: ",\n")
        return #"{"citiesFrom": [\#(from)], "citiesTo": [\#(to)]}"#
    }

    /// Records, warnings and directions as the rules say, one spec and one station at a time.
    static func reference(_ document: JSONDocument) -> (records: [Int], warnings: [LoadWarning], directions: [Directions]) {
        var records: [Int] = []
        var warnings: [LoadWarning] = []
        var directions: [Directions] = []
        var rowById: [Int: Int] = [:]
        var entries = 0
        let root = document.roots[0]
        for (listName, direction) in [("citiesFrom", Directions.from), ("citiesTo", Directions.to)] {
            guard let list = document.member(listName, of: root) else { continue }
            for (offset, city) in document.elements(of: list).enumerated() {
                guard document.kind(at: city) == .object else {
                    warnings.append(LoadWarning(record: offset + 1, message: "\(listName) entry skipped: expected a city object, found \(document.kind(at: city).typeDescription)"))
                    continue
                }
                guard let stations = document.member("stations", of: city), document.kind(at: stations) == .array else { continue }
                for station in document.elements(of: stations) {
                    entries += 1
                    var own: [LoadWarning] = []
                    guard document.kind(at: station) == .object else {
                        warnings.append(LoadWarning(record: entries, message: "skipped: expected a station object, found \(document.kind(at: station).typeDescription)"))
                        continue
                    }
                    let passed = check(station, number: entries, in: document, warnings: &own)
                    guard let idNode = document.member("stationId", of: station), document.kind(at: idNode) == .number,
                          let id = Int(exactly: document.number(at: idNode)) else {
                        warnings += own
                        continue
                    }
                    if let row = rowById[id] {
                        directions[row].insert(direction)
                        continue
                    }
                    warnings += own
                    guard passed else { continue }
                    rowById[id] = records.count
                    records.append(station)
                    directions.append(direction)
                }
            }
        }
        return (records, warnings, directions)
    }

    static func check(_ station: Int, number: Int, in document: JSONDocument, warnings: inout [LoadWarning]) -> Bool {
        let name = document.member("stationTitle", of: station).flatMap { document.kind(at: $0) == .string ? document.string(at: $0) : nil }
        if let repeated = document.repeatedKey(within: station) {
            warnings.append(LoadWarning(record: number, name: name, message: repeated.message))
        }
        for spec in StationModel.fieldSpecs {
            guard let value = document.member(spec.key, of: station) else {
                if spec.identity {
                    warnings.append(LoadWarning(record: number, name: name, message: "skipped: it has no '\(spec.key)'"))
                    return false
                }
                if !spec.optional { warnings.append(LoadWarning(record: number, name: name, message: "\(spec.key) is missing")) }
                continue
            }
            if let problem = RecordExtraction.problem(with: value, for: spec, in: document) {
                warnings.append(LoadWarning(record: number, name: name, message: spec.identity ? "skipped: \(problem)" : problem))
                if spec.identity { return false }
            }
        }
        return true
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func extractionFollowsTheRulesStationByStation(seed: UInt64) throws {
        var builder = JSONDocumentBuilder()
        _ = try Array(Self.text(seed: seed).utf8).withUnsafeBufferPointer { bytes throws(LoadFailure) in
            try JSONParser.parse(bytes, source: "s.json", into: &builder)
        }
        let document = builder.finish()
        let expected = Self.reference(document)
        #expect(expected.warnings.count > 40)  // the faults are there: the comparison means something
        for twoThreadsFrom in [0, Int.max] {
            let extraction = try StationModel.extract(from: document, source: "s.json", cancellation: .never, twoThreadsFrom: twoThreadsFrom)
            #expect(extraction.records == expected.records)
            #expect(extraction.warnings == expected.warnings)
            #expect(try #require(extraction.extras[StationModel.Extras.self]).directions == expected.directions)
        }
    }
}
