/// A country as REST Countries v2 describes it: every one of its 24 fields, optional where
/// the data is (Antarctica has no capital; some countries have no area, Gini, numeric code or
/// CIOC code). Decoded leniently from the stored record: a mistyped field is simply absent.
public struct Country: Sendable, Equatable {
    public var name: String
    public var topLevelDomain: [String]
    public var alpha2Code: String
    public var alpha3Code: String
    public var callingCodes: [String]
    /// Nil when the source has none (`""` for Antarctica and four others).
    public var capital: String?
    public var altSpellings: [String]
    public var region: String
    public var subregion: String
    public var population: Int?
    /// Latitude and longitude, when given.
    public var latlng: [Double]
    public var demonym: String
    /// Square kilometres.
    public var area: Double?
    public var gini: Double?
    public var timezones: [String]
    /// Alpha-3 codes of the neighbours.
    public var borders: [String]
    public var nativeName: String
    public var numericCode: String?
    public var currencies: [Currency]
    public var languages: [Language]
    /// Language code to name, in source order.
    public var translations: [(language: String, name: String)]
    public var flag: String
    public var regionalBlocs: [RegionalBloc]
    public var cioc: String?

    public struct Currency: Sendable, Equatable {
        public var code: String?
        public var name: String?
        public var symbol: String?

        /// `Euro (EUR, €)`; nil when the source says nothing (`null`, `(none)`: see `ValueText`).
        public var description: String? {
            let present = [name, code, symbol].map { $0.flatMap { ValueText.isAbsent($0) ? nil : $0 } }
            guard let title = present[0] ?? present[1] ?? present[2] else { return nil }
            let details = present[1...].compactMap { $0 }.filter { $0 != title }
            return details.isEmpty ? title : "\(title) (\(details.joined(separator: ", ")))"
        }
    }

    public struct Language: Sendable, Equatable {
        public var name: String?
        public var nativeName: String?
        public var iso639_1: String?
        public var iso639_2: String?
    }

    public struct RegionalBloc: Sendable, Equatable {
        public var acronym: String
        public var name: String
        public var otherAcronyms: [String]
        public var otherNames: [String]
    }

    public static func == (lhs: Country, rhs: Country) -> Bool { lhs.alpha3Code == rhs.alpha3Code }

    public init(_ record: JSONValue) {
        name = record["name"]?.string ?? ""
        topLevelDomain = record["topLevelDomain"]?.strings ?? []
        alpha2Code = record["alpha2Code"]?.string ?? ""
        alpha3Code = record["alpha3Code"]?.string ?? ""
        callingCodes = record["callingCodes"]?.strings ?? []
        capital = record["capital"]?.nonEmptyString
        altSpellings = record["altSpellings"]?.strings ?? []
        region = record["region"]?.string ?? ""
        subregion = record["subregion"]?.string ?? ""
        population = record["population"]?.number.flatMap { Int(exactly: $0) }
        latlng = record["latlng"]?.array?.compactMap(\.number) ?? []
        demonym = record["demonym"]?.string ?? ""
        area = record["area"]?.number
        gini = record["gini"]?.number
        timezones = record["timezones"]?.strings ?? []
        borders = record["borders"]?.strings ?? []
        nativeName = record["nativeName"]?.string ?? ""
        numericCode = record["numericCode"]?.nonEmptyString
        currencies = (record["currencies"]?.array ?? []).map {
            Currency(code: $0["code"]?.string, name: $0["name"]?.string, symbol: $0["symbol"]?.string)
        }
        // The source spells some keys two ways (`iso639-1`, `nativName`).
        languages = (record["languages"]?.array ?? []).map {
            Language(name: $0["name"]?.string, nativeName: ($0["nativeName"] ?? $0["nativName"])?.string,
                     iso639_1: ($0["iso639_1"] ?? $0["iso639-1"])?.string, iso639_2: $0["iso639_2"]?.string)
        }
        translations = (record["translations"]?.members ?? []).compactMap { member in
            member.value.string.map { (member.key, $0) }
        }
        flag = record["flag"]?.string ?? ""
        regionalBlocs = (record["regionalBlocs"]?.array ?? []).map {
            RegionalBloc(acronym: $0["acronym"]?.string ?? "", name: $0["name"]?.string ?? "",
                         otherAcronyms: $0["otherAcronyms"]?.strings ?? [], otherNames: $0["otherNames"]?.strings ?? [])
        }
        cioc = record["cioc"]?.nonEmptyString
    }

    /// Latitude, when the source gives coordinates.
    public var latitude: Double? { latlng.count == 2 ? latlng[0] : nil }
    public var longitude: Double? { latlng.count == 2 ? latlng[1] : nil }
}

extension JSONValue {
    /// The strings of an array (other elements skipped).
    public var strings: [String]? { array?.compactMap(\.string) }

    /// A string that is not empty.
    public var nonEmptyString: String? {
        guard let string, !string.isEmpty else { return nil }
        return string
    }
}
