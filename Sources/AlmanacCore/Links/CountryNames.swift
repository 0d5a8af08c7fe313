/// A country found by any of its names: its Russian translation first (what the stations use),
/// its name, native name, other spellings and translations, ignoring case and accents.
enum CountryNames {
    /// Names the stations give countries that REST Countries spells otherwise: `Молдова` is
    /// REST Countries' `Молдавия` (Moldova, MDA).
    static let aliases: [String: String] = ["молдова": "MDA"]

    /// Each folded name of a country, with its row (the first country to claim a name keeps it).
    static func rows(of countries: Dataset) -> [String: Int] {
        countries.cached(CacheKey<[String: Int]>("rows-by-country-name")) {
            var names: [String: Int] = [:]
            func add(_ name: String, _ row: Int) {
                if !name.isEmpty, names[name] == nil { names[name] = row }
            }
            for path in ["translations.ru", "name", "nativeName", "altSpellings", "translations"] {
                let compiled = countries.compile(FieldPath(path))
                for row in 0..<countries.count {
                    countries.forEachValue(of: compiled, row: row) { add(key(countries.text(of: $0)), row) }
                }
            }
            for (alias, code) in aliases {
                if let row = countries.row(forIdentity: code) { add(alias, row) }
            }
            return names
        }
    }

    static func key(_ name: String) -> String { Folding.fold(name) }
}
