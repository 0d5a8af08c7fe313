import Dispatch

/// The stations of the ticketing service: an object `{"citiesFrom": [City], "citiesTo": [City]}`
/// whose cities hold stations. One record per `stationId`; a station listed under both gets
/// both directions.
public enum StationModel: RecordModel {
    public static let singular = "station"
    public static let plural = "stations"
    public static let nameField = "stationTitle"
    public static let otherNameFields = ["cityTitle"]
    public static let listFields = ["stationId", "stationTitle", "cityTitle", "regionTitle", "countryTitle", "directions"]

    public static let fieldSpecs: [FieldSpec] = [
        FieldSpec("stationId", .number, identity: true),
        FieldSpec("stationTitle", .string),
        FieldSpec("cityId", .number),
        FieldSpec("cityTitle", .string),
        FieldSpec("districtTitle", .string),
        FieldSpec("regionTitle", .string),
        FieldSpec("countryTitle", .string),
        FieldSpec("point", .object),
    ]

    public static let derivedFields: [DerivedField] = [
        DerivedField(name: "directions") { dataset, row in
            directionValues[Int(directions(dataset, row).rawValue & 3)]
        },
    ]

    /// Each set of directions' values, by its raw value: made once, not per row of a describe or group.
    private static let directionValues: [[FieldValue]] = (0..<4).map { Directions(rawValue: UInt8($0)).names.map(FieldValue.text) }

    /// What the extraction learns beyond the records.
    public struct Extras: Sendable {
        /// Per row: the directions the station serves.
        public var directions: [Directions]
        /// Node index of every city entry, with the list it came from.
        public var cities: [(node: Int, direction: Directions)]
        /// Per row: the id of the station's city (Int.min when it has none).
        public var cityOfRow: [Int]
    }

    /// The rows of the stations of the city `cityId` (computed once, when first asked).
    public static func rows(ofCity cityId: Int, in dataset: Dataset) -> [Int] {
        let byCity = dataset.cached(CacheKey<[Int: [Int]]>("rows-by-city")) {
            var byCity: [Int: [Int]] = [:]
            for (row, city) in (dataset.extras[Extras.self]?.cityOfRow ?? []).enumerated() where city != Int.min {
                byCity[city, default: []].append(row)
            }
            return byCity
        }
        return byCity[cityId] ?? []
    }

    public static func directions(_ dataset: Dataset, _ row: Int) -> Directions {
        dataset.extras[Extras.self]?.directions[row] ?? []
    }

    public static func extract(from document: JSONDocument, source: String, cancellation: Cancellation) throws(LoadFailure) -> Extraction {
        try extract(from: document, source: source, cancellation: cancellation, twoThreadsFrom: 1024)
    }

    /// `twoThreadsFrom`: the number of cities from which two threads scan them.
    static func extract(from document: JSONDocument, source: String, cancellation: Cancellation,
                        twoThreadsFrom: Int) throws(LoadFailure) -> Extraction {
        guard document.roots.count == 1, let root = document.roots.first, document.kind(at: root) == .object,
              document.member("citiesFrom", of: root) != nil || document.member("citiesTo", of: root) != nil else {
            let found = document.roots.first.map { document.kind(at: $0).typeDescription } ?? "nothing"
            throw .shape(source: source, message: "expected an object with 'citiesFrom' and 'citiesTo' lists of cities; found \(found)")
        }
        var cities: [CityEntry] = []
        for (listName, direction) in [("citiesFrom", Directions.from), ("citiesTo", Directions.to)] {
            guard let list = document.member(listName, of: root) else { continue }
            guard document.kind(at: list) == .array else {
                throw .shape(source: source, message: "'\(listName)' should be a list of cities; found \(document.kind(at: list).typeDescription)")
            }
            cities.reserveCapacity(cities.count + document.count(at: list))
            for (offset, city) in document.elements(of: list).enumerated() {
                cities.append(CityEntry(node: city, direction: direction, offset: offset))
            }
        }
        // Reading the stations and checking their fields is most of the work, and each city
        // is on its own: two threads scan a half each; de-duplicating by id then goes in order.
        let scanner = StationScanner(document: document, specs: fieldSpecs.map { RecordExtraction.CompiledSpec($0, in: document) },
                                     nameKey: document.key(nameField), stationsKey: document.key("stations"),
                                     stationIdKey: document.key("stationId"), cityIdKey: document.key("cityId"))
        let halves = cities.count >= twoThreadsFrom ? Self.halves(of: cities, in: document) : [cities.indices]
        let allCities = cities
        var scans = halves.map { StationScanner.Scan(reservingFor: $0.count) }
        scans.withUnsafeMutableBufferPointer { scans in
            nonisolated(unsafe) let scans = scans
            DispatchQueue.concurrentPerform(iterations: halves.count) { half in
                scanner.scan(allCities[halves[half]], into: &scans[half], cancellation: cancellation)
            }
        }
        if scans.contains(where: \.cancelled) || cancellation.isCancelled { throw .cancelled }

        var records: [Int] = []
        var directions: [Directions] = []
        var cityNodes: [(node: Int, direction: Directions)] = []
        var rowByStation: [Int: Int] = [:]
        rowByStation.reserveCapacity(document.nodes.count / 40)
        var cityOfRow: [Int] = []
        var warnings: [LoadWarning] = []
        var entriesBefore = 0
        for scan in scans {
            var warningStart = 0
            for entry in scan.entries {
                let entryWarnings = scan.warnings[warningStart..<entry.warningEnd]
                warningStart = entry.warningEnd
                func addWarnings() {
                    for var warning in entryWarnings {
                        // Station warnings number entries from the start of the file; city ones count in their list.
                        if entry.station >= 0, let record = warning.record { warning.record = record + entriesBefore }
                        warnings.append(warning)
                    }
                }
                guard entry.station >= 0, entry.hasIdentity else {
                    addWarnings()
                    continue
                }
                if let row = rowByStation[entry.id] {
                    directions[row].insert(entry.direction)
                    continue
                }
                addWarnings()
                guard entry.passed else { continue }
                rowByStation[entry.id] = records.count
                cityOfRow.append(entry.cityId)
                records.append(entry.station)
                directions.append(entry.direction)
            }
            entriesBefore += scan.stationEntries
            cityNodes.append(contentsOf: scan.cities)
        }
        return Extraction(records: records, warnings: warnings,
                          extras: ModelExtras(Extras(directions: directions, cities: cityNodes, cityOfRow: cityOfRow)))
    }

    /// The city entries in two halves of about the same size in the document.
    private static func halves(of cities: [CityEntry], in document: JSONDocument) -> [Range<Int>] {
        guard let first = cities.first, let last = cities.last else { return [cities.indices] }
        let middle = (first.node + document.end(of: last.node)) / 2
        let split = cities.firstIndex { $0.node >= middle } ?? cities.count
        return [0..<split, split..<cities.count]
    }

    public static func identities(of record: JSONValue) -> [String] {
        (record["stationId"]?.literal).map { [$0] } ?? []
    }

    public static func summary(of dataset: Dataset) -> String {
        let cities = dataset.extras[Extras.self]?.cities.count ?? 0
        return "\(dataset.count.grouped) stations in \(cities.grouped) cities"
    }

    public static func station(_ dataset: Dataset, row: Int) -> Station {
        Station(dataset.record(row), directions: directions(dataset, row))
    }

    public static func cities(of dataset: Dataset) -> [City] {
        (dataset.extras[Extras.self]?.cities ?? []).map { City(dataset.document.value(at: $0.node), direction: $0.direction) }
    }
}
