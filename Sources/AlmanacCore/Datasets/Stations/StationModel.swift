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
        try extract(from: document, source: source, cancellation: cancellation, twoThreadsFrom: 8192)
    }

    /// `twoThreadsFrom`: the number of cities from which two threads scan them. Fewer (the
    /// bundled file has 3,120, scanned in 0.3 ms) take one: a fresh process's first
    /// concurrentPerform starts libdispatch's worker and manager threads, which costs more.
    static func extract(from document: JSONDocument, source: String, cancellation: Cancellation,
                        twoThreadsFrom: Int) throws(LoadFailure) -> Extraction {
        guard document.roots.count == 1, let root = document.roots.first, document.kind(at: root) == .object,
              document.member("citiesFrom", of: root) != nil || document.member("citiesTo", of: root) != nil else {
            let found = document.roots.first.map { document.kind(at: $0).typeDescription } ?? "nothing"
            throw .shape(source: source, message: "expected an object with 'citiesFrom' and 'citiesTo' lists of cities; found \(found)")
        }
        var lists: [CityList] = []
        for (listName, direction) in [("citiesFrom", Directions.from), ("citiesTo", Directions.to)] {
            guard let list = document.member(listName, of: root) else { continue }
            guard document.kind(at: list) == .array else {
                throw .shape(source: source, message: "'\(listName)' should be a list of cities; found \(document.kind(at: list).typeDescription)")
            }
            lists.append(CityList(node: list, direction: direction))
        }
        let cityLists = lists
        let cityCount = lists.reduce(0) { $0 + document.count(at: $1.node) }
        // Reading the stations and checking their fields is most of the work, and each city
        // is on its own: two threads scan a half each (by node, about the same bytes); the
        // second starts at the city the parse marked, or finds its first city on its own while
        // the first scans. Then `StationDeduplication` makes the records.
        let scanner = StationScanner(document: document, specs: fieldSpecs, nameField: nameField)
        let middle = cityCount >= twoThreadsFrom ? Self.middle(of: cityLists, in: document) : nil
        var scans = (middle == nil ? [cityCount] : [cityCount / 2, cityCount - cityCount / 2]).map { StationScanner.Scan(reservingFor: $0) }
        scans.withUnsafeMutableBufferPointer { scans in
            onThreads(scans.count) { half in
                let start = half == 0 ? CityPosition.start(of: cityLists) : scanner.position(of: middle ?? 0, in: cityLists)
                let stop = half == 0 ? middle ?? Int.max : Int.max
                scanner.scan(cityLists, from: start, before: stop, into: &scans[half], cancellation: cancellation)
            }
        }
        if scans.contains(where: \.cancelled) || cancellation.isCancelled { throw .cancelled }

        let deduplicated = StationDeduplication(scans)
        var cityNodes: [(node: Int, direction: Directions)] = []
        cityNodes.reserveCapacity(cityCount)
        for scan in scans { cityNodes.append(contentsOf: scan.cities) }
        return Extraction(records: deduplicated.records, warnings: deduplicated.warnings,
                          extras: ModelExtras(Extras(directions: deduplicated.directions, cities: cityNodes,
                                                     cityOfRow: deduplicated.cityOfRow)))
    }

    /// The node halfway between the first city entry and the end of the last; or a city the
    /// parse marked (see `JSONDocument.ElementMark`) in the middle half, which the second
    /// scan finds without walking to it.
    static func middle(of lists: [CityList], in document: JSONDocument) -> Int? {
        let filled = lists.filter { document.count(at: $0.node) > 0 }
        guard let first = filled.first, let last = filled.last else { return nil }
        let (start, end) = (first.node + 2, document.end(of: last.node))
        let middleHalf = (start + (end - start) / 4)...(end - (end - start) / 4)
        let marked = document.elementMarks.first { mark in lists.contains { $0.node == mark.array } && middleHalf.contains(mark.node) }
        return marked?.node ?? (start + end) / 2
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
