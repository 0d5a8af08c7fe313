import Foundation

extension CountryModel {
    /// The country browser's detail screen: names and codes, the flag's URL, spellings, capital, region,
    /// population, coordinates, area, Gini, demonym, timezones, borders, currencies, languages,
    /// translations, regional blocs, calling codes, stations.
    public static func detail(of dataset: Dataset, row: Int, links: Links) -> RecordDetail {
        let record = dataset.record(row)
        let country = Country(record)
        // Numbers as every view reads them (ValueText): as written, grouped in thousands.
        func number(_ key: String) -> String? { record[key].flatMap { $0.kind == .number ? ValueText.text(of: $0, field: key) : nil } }
        typealias Row = RecordDetail.Row
        typealias Section = RecordDetail.Section
        let borders = country.borders.map { code in links.countryName(code: code).map { "\($0) (\(code))" } ?? code }
        let coordinates = country.latitude.flatMap { latitude in
            country.longitude.map { Coordinates.text(latitude: latitude, longitude: $0) }
        }
        let stations = links.stationCount(country: row, of: dataset)
        return RecordDetail(title: country.name, sections: [
            Section("Names and codes", rows: [
                Row("Name", country.name), Row("Native name", country.nativeName),
                Row("Alpha-2", country.alpha2Code), Row("Alpha-3", country.alpha3Code),
                Row("Numeric", country.numericCode), Row("Top-level domains", country.topLevelDomain.joined(separator: ", ")),
                Row("CIOC", country.cioc),
            ]),
            Section("Flag", rows: [Row("Flag", country.flag)]),
            Section("Alternative spellings", rows: [Row("Spellings", country.altSpellings.joined(separator: ", "))]),
            Section("Capital", rows: [Row("Capital", country.capital)]),
            Section("Region", rows: [Row("Region", country.region), Row("Subregion", country.subregion)]),
            Section("Population", rows: [Row("Population", number("population"))]),
            Section("Coordinates", rows: [Row("Coordinates", coordinates)]),
            Section("Area", rows: [Row("Area", number("area").map { $0 + " km²" })]),
            Section("Gini", rows: [Row("Gini", number("gini"))]),
            Section("Demonym", rows: [Row("Demonym", country.demonym)]),
            Section("Timezones", rows: [Row("Timezones", country.timezones.joined(separator: ", "))]),
            Section("Borders", rows: [Row("Borders", borders.joined(separator: ", "))]),
            Section("Currencies", rows: country.currencies.map { Row("Currency", $0.description) }),
            Section("Languages", rows: country.languages.compactMap { language in
                let present = { (text: String?) in text.flatMap { ValueText.isAbsent($0) ? nil : $0 } }
                let codes = [language.iso639_1, language.iso639_2].compactMap(present)
                guard var text = present(language.name) ?? present(language.nativeName) else { return nil }
                if let native = present(language.nativeName), native != text { text += " — \(native)" }
                if !codes.isEmpty { text += " (ISO 639: \(codes.joined(separator: ", ")))" }
                return Row("Language", text)
            }),
            Section("Translations", rows: country.translations.map { Row($0.language, $0.name) }),
            Section("Regional blocs", rows: country.regionalBlocs.map { bloc in
                var text = "\(bloc.acronym) — \(bloc.name)"
                if !bloc.otherAcronyms.isEmpty { text += "; also \(bloc.otherAcronyms.joined(separator: ", "))" }
                if !bloc.otherNames.isEmpty { text += "; also called \(bloc.otherNames.joined(separator: ", "))" }
                return Row("Bloc", text)
            }),
            Section("Calling codes", rows: [Row("Calling codes", country.callingCodes.filter { !$0.isEmpty }.map { "+" + $0 }.joined(separator: ", "))]),
            Section("Stations", rows: [Row("Stations", stations.flatMap { $0 > 0 ? $0.grouped : nil })]),
        ])
    }
}

/// Coordinates to three decimals with hemispheres: `62.000° N, 10.000° E`.
public enum Coordinates {
    public static func text(latitude: Double, longitude: Double) -> String {
        let north = NumberFormat.fixed(abs(latitude), decimals: 3) + "° " + (latitude < 0 ? "S" : "N")
        let east = NumberFormat.fixed(abs(longitude), decimals: 3) + "° " + (longitude < 0 ? "W" : "E")
        return north + ", " + east
    }

    /// Great-circle distance in kilometres (haversine, mean Earth radius).
    public static func distance(fromLatitude lat1: Double, longitude lon1: Double, toLatitude lat2: Double, longitude lon2: Double) -> Double {
        Haversine.kilometres(lat1, lon1, lat2, lon2)
    }
}
