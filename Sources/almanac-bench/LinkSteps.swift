import AlmanacCore

/// Paths across links (issue 27) over the scaled stations: each station's `country` link into
/// the countries file, as the shell crosses it. The counts are checked first against a plain
/// loop that looks each station's countryTitle up among the countries' Russian names.
enum LinkSteps {
    static let filter = "country.region = Europe"
    static let group = "country.region"

    static func run(_ dataset: Dataset, directory: String, record: (String, String, Stats, Int?) -> Void) throws -> [String: Int] {
        let countries = try DatasetLoader().load(LoadRequest(name: "countries", source: .file(path: directory + "/countries.json"),
                                                             model: CountryModel.self), progress: LoadProgress(), cancellation: .never)
        /// A fresh copy of the stations (no link index yet) in a catalog beside the countries;
        /// the catalog is returned too: a dataset holds its catalog weakly.
        func freshCopy() -> (stations: Dataset, catalog: Catalog) {
            let stations = Dataset(name: dataset.name, model: dataset.model, document: dataset.document,
                                   extraction: Extraction(records: dataset.records, warnings: dataset.warnings, extras: dataset.extras),
                                   origin: dataset.origin)
            let catalog = Catalog(preparesIndexes: false)
            catalog.insert(countries, request: LoadRequest(name: "countries", source: .file(path: ""), model: CountryModel.self))
            catalog.insert(stations, request: LoadRequest(name: "stations", source: .file(path: ""), model: StationModel.self))
            return (stations, catalog)
        }
        let expected = referenceCounts(dataset, countries: countries)
        try expect(expected.found, dataset.count, "stations whose countryTitle names a country (a plain loop)")
        let expression = try Queries.filter(filter)
        // The first path pays for the link's index (each station's country row).
        let (coldStats, cold) = try measure(warmups: 0, runs: 3) {
            let copy = freshCopy()
            return try withExtendedLifetime(copy.catalog) { try Filter.run(expression, on: .all([copy.stations])).count }
        } check: { try expect($0, expected.europe, "filter \(filter), first time, vs a loop over the stations") }
        record("link.first", "filter \(filter), first time (builds the link index)", coldStats, cold)
        let (stations, catalog) = freshCopy()
        defer { withExtendedLifetime(catalog) {} }
        _ = try Filter.run(expression, on: .all([stations]))
        let (filterStats, filtered) = try measure(warmups: 2, runs: 7) {
            try Filter.run(expression, on: .all([stations])).count
        } check: { try expect($0, expected.europe, "filter \(filter) vs a loop over the stations") }
        record("link.filter", "filter \(filter)", filterStats, filtered)
        let (groupStats, grouped) = try measure(warmups: 1, runs: 5) {
            try Group.run(.all([stations]), by: GroupSpec(fields: [group])).reduce(0) { $0 + $1.count }
        } check: { try expect($0, dataset.count, "group \(group): every station in its country's region") }
        record("link.group", "group \(group)", groupStats, grouped)
        return ["link:europe": expected.europe]
    }

    /// Stations whose countryTitle is the Russian name of a European country, by a plain loop
    /// (the stations' Беларусь and Молдова are REST Countries' Белоруссия and Молдавия).
    static func referenceCounts(_ stations: Dataset, countries: Dataset) -> (europe: Int, found: Int) {
        var regionByName: [String: String] = [:]
        let russian = countries.compile(FieldPath("translations.ru"))
        let region = countries.compile(FieldPath("region"))
        for row in 0..<countries.count {
            guard let name = countries.values(of: russian, row: row).first.map(countries.text),
                  let value = countries.values(of: region, row: row).first.map(countries.text) else { continue }
            regionByName[name.lowercased()] = value
        }
        regionByName["беларусь"] = regionByName["белоруссия"]
        regionByName["молдова"] = regionByName["молдавия"]
        let title = stations.compile(FieldPath("countryTitle"))
        var europe = 0, found = 0
        for row in 0..<stations.count {
            guard let name = stations.values(of: title, row: row).first.map(stations.text), let value = regionByName[name.lowercased()] else { continue }
            found += 1
            if value == "Europe" { europe += 1 }
        }
        return (europe, found)
    }
}
