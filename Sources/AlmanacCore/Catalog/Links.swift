/// Connections between datasets, resolved through the catalog at the moment they are shown:
/// a species' homeworld and people by name, a station's country, a country's station count.
public struct Links {
    /// Finds a dataset by name; the shell's version waits for one still loading.
    private let lookup: (String) -> Dataset?

    public init(catalog: Catalog) { lookup = { catalog.dataset($0) } }
    public init(lookup: @escaping (String) -> Dataset?) { self.lookup = lookup }

    private func dataset(_ name: String) -> Dataset? { lookup(name) }

    /// How a SWAPI link reads (`https://swapi.dev/api/planets/1/` → `Tatooine`): the name of
    /// the record it points at, in the dataset named like the resource (planets, people,
    /// species, films, …) when that is loaded; nil when that record's name is absent (a planet
    /// called "unknown"). Otherwise a film by its title (SWAPI's seven films are known by
    /// heart), else the resource and its number (`vehicle 14`); text that is not a SWAPI URL
    /// as it is.
    public func swapiName(ofURL url: String) -> String? {
        guard let resource = SWAPI.resource(ofURL: url) else { return url }
        if let name = name(ofURL: url, in: resource.kind) { return ValueText.isAbsent(name) ? nil : name }
        if resource.kind == "films", let title = SWAPI.filmTitles[resource.id] { return title }
        return "\(SWAPI.singular(of: resource.kind)) \(resource.id)"
    }

    /// A SWAPI link or list of links (`homeworld`, `films`) as the names of what they point
    /// at, absent ones left out: what details show and what filter, sort and group compare.
    public func swapiNames(of value: JSONValue) -> [String] {
        let urls = value.string.map { [$0] } ?? value.strings ?? []
        return urls.compactMap { swapiName(ofURL: $0) }
    }

    /// The name of the SWAPI record at `url` in `dataset` (planets, people).
    public func name(ofURL url: String, in name: String) -> String? {
        guard let target = dataset(name) else { return nil }
        let byURL = target.cached(CacheKey<[String: String]>("names-by-url")) {
            var map: [String: String] = [:]
            let key = target.document.key("url")
            for row in 0..<target.count {
                if let value = target.document.member(key, of: target.records[row]), target.document.kind(at: value) == .string {
                    map[target.document.string(at: value)] = target.name(of: row)
                }
            }
            return map
        }
        return byURL[url]
    }

    /// The country a station's `countryTitle` (`Россия`) names: matched against each country's
    /// Russian translation, name, native name and other spellings, ignoring case and diacritics.
    public func country(named title: String) -> (dataset: Dataset, row: Int)? {
        guard let countries = dataset("countries") else { return nil }
        return CountryNames.rows(of: countries)[CountryNames.key(title)].map { (countries, $0) }
    }

    /// How many stations lie in the country at `row` of `countries`.
    public func stationCount(country row: Int, of countries: Dataset) -> Int? {
        guard let stations = dataset("stations") else { return nil }
        let perCountry = stations.cached(CacheKey<[String: Int]>("stations-per-country")) {
            var counts: [String: Int] = [:]
            let key = stations.document.key("countryTitle")
            for record in stations.records {
                if let value = stations.document.member(key, of: record), stations.document.kind(at: value) == .string {
                    counts[stations.document.string(at: value), default: 0] += 1
                }
            }
            return counts
        }
        var total = 0
        for (title, count) in perCountry {
            if let match = country(named: title), match.row == row, match.dataset === countries { total += count }
        }
        return total
    }

    /// A country's name by its alpha-3 code (for borders).
    public func countryName(code: String) -> String? {
        guard let countries = dataset("countries"), let row = countries.row(forIdentity: code) else { return nil }
        return countries.name(of: row)
    }
}
