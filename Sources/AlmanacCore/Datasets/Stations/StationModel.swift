/// The stations of the ticketing service: an object `{"citiesFrom": [City], "citiesTo": [City]}`
/// whose cities hold stations. One record per `stationId`; a station listed under both gets
/// both directions.
public enum StationModel: RecordModel {
    public static let singular = "station"
    public static let plural = "stations"
    public static let nameField = "stationTitle"
    public static let otherNameFields = ["cityTitle"]
    public static let listFields = ["stationTitle", "cityTitle", "regionTitle", "countryTitle", "directions"]

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
            directions(dataset, row).names.map(FieldValue.text)
        },
    ]

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
        let byCity: [Int: [Int]] = dataset.cached("rows-by-city") {
            var byCity: [Int: [Int]] = [:]
            for (row, city) in ((dataset.extras as? Extras)?.cityOfRow ?? []).enumerated() where city != Int.min {
                byCity[city, default: []].append(row)
            }
            return byCity
        }
        return byCity[cityId] ?? []
    }

    public static func directions(_ dataset: Dataset, _ row: Int) -> Directions {
        (dataset.extras as? Extras)?.directions[row] ?? []
    }

    public static func extract(from document: JSONDocument, source: String, cancellation: Cancellation) throws(LoadFailure) -> Extraction {
        guard document.roots.count == 1, let root = document.roots.first, document.kind(at: root) == .object,
              document.member("citiesFrom", of: root) != nil || document.member("citiesTo", of: root) != nil else {
            let found = document.roots.first.map { document.kind(at: $0).typeDescription } ?? "nothing"
            throw .shape(source: source, message: "expected an object with 'citiesFrom' and 'citiesTo' lists of cities; found \(found)")
        }
        var records: [Int] = []
        var directions: [Directions] = []
        var cities: [(node: Int, direction: Directions)] = []
        var rowByStation: [Int: Int] = [:]
        rowByStation.reserveCapacity(document.nodes.count / 40)
        var cityOfRow: [Int] = []
        var warnings: [LoadWarning] = []
        let specs = fieldSpecs.map { RecordExtraction.CompiledSpec($0, in: document) }
        let nameKey = document.key(nameField)
        let stationsKey = document.key("stations")
        let stationIdKey = document.key("stationId")
        let cityIdKey = document.key("cityId")
        var entry = 0

        for (listName, direction) in [("citiesFrom", Directions.from), ("citiesTo", Directions.to)] {
            guard let list = document.member(listName, of: root) else { continue }
            guard document.kind(at: list) == .array else {
                throw .shape(source: source, message: "'\(listName)' should be a list of cities; found \(document.kind(at: list).typeDescription)")
            }
            for (cityOffset, city) in document.elements(of: list).enumerated() {
                if cityOffset & 0xFFF == 0, cancellation.isCancelled { throw .cancelled }
                guard document.kind(at: city) == .object else {
                    warnings.append(LoadWarning(record: cityOffset + 1, message: "\(listName) entry skipped: expected a city object, found \(document.kind(at: city).typeDescription)"))
                    continue
                }
                cities.append((city, direction))
                let cityId = document.member(cityIdKey, of: city).flatMap { document.kind(at: $0) == .number ? Int(exactly: document.number(at: $0)) : nil }
                guard let stations = document.member(stationsKey, of: city), document.kind(at: stations) == .array else { continue }
                var child = stations + 2
                for _ in 0..<document.count(at: stations) {
                    let station = child
                    child = document.end(of: child)
                    entry += 1
                    guard document.kind(at: station) == .object else {
                        warnings.append(LoadWarning(record: entry, message: "skipped: expected a station object, found \(document.kind(at: station).typeDescription)"))
                        continue
                    }
                    guard let idNode = document.member(stationIdKey, of: station), document.kind(at: idNode) == .number,
                          let id = Int(exactly: document.number(at: idNode)) else {
                        _ = RecordExtraction.check(station, number: entry, specs: specs, nameKey: nameKey, in: document, warnings: &warnings)
                        continue
                    }
                    if let row = rowByStation[id] {
                        directions[row].insert(direction)
                        continue
                    }
                    guard RecordExtraction.check(station, number: entry, specs: specs, nameKey: nameKey, in: document, warnings: &warnings) else { continue }
                    rowByStation[id] = records.count
                    cityOfRow.append(cityId ?? Int.min)
                    records.append(station)
                    directions.append(direction)
                }
            }
        }
        return Extraction(records: records, warnings: warnings,
                          extras: Extras(directions: directions, cities: cities, cityOfRow: cityOfRow))
    }

    public static func identities(of record: JSONValue) -> [String] {
        (record["stationId"]?.literal).map { [$0] } ?? []
    }

    public static func summary(of dataset: Dataset) -> String {
        let cities = (dataset.extras as? Extras)?.cities.count ?? 0
        return "\(dataset.count.grouped) stations in \(cities.grouped) cities"
    }

    public static func station(_ dataset: Dataset, row: Int) -> Station {
        Station(dataset.record(row), directions: directions(dataset, row))
    }

    public static func cities(of dataset: Dataset) -> [City] {
        ((dataset.extras as? Extras)?.cities ?? []).map { City(dataset.document.value(at: $0.node), direction: $0.direction) }
    }
}
