import AlmanacCore
import AlmanacPostgres
import PostgresCluster
import Testing

/// The same question asked of the bundled data in memory (almanac's own Filter, Search and
/// Ordering over a generic copy of the records) and of the tables they were exported to: the
/// answers, rows and order, must be equal.
@Suite struct MemoryParityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let dataset: String
        let text: String
        var testDescription: String { "\(dataset): \(text)" }
    }

    static let filters: [Case] = [
        // Text, every operator.
        Case(dataset: "countries", text: "region = Europe"),
        Case(dataset: "countries", text: "region = EUROPE"),
        Case(dataset: "countries", text: "region != Europe"),
        Case(dataset: "countries", text: "name ~ land"),
        Case(dataset: "countries", text: "name !~ a"),
        Case(dataset: "countries", text: "name < C"),
        Case(dataset: "countries", text: "name <= Chad"),
        Case(dataset: "countries", text: "name > Uganda"),
        Case(dataset: "countries", text: "name >= uganda"),
        Case(dataset: "countries", text: "name = \"aland islands\""),
        Case(dataset: "countries", text: "capital = \"\""),
        Case(dataset: "countries", text: "capital ~ \"\""),
        // Numbers, every operator, and numbers as text.
        Case(dataset: "countries", text: "population > 100000000"),
        Case(dataset: "countries", text: "population >= 83240525"),
        Case(dataset: "countries", text: "population < 1000"),
        Case(dataset: "countries", text: "population <= 1000"),
        Case(dataset: "countries", text: "population = 5379475"),
        Case(dataset: "countries", text: "population != 0"),
        Case(dataset: "countries", text: "population ~ 537"),
        Case(dataset: "countries", text: "population !~ 0"),
        Case(dataset: "countries", text: "area > 1000000 and region = Asia"),
        Case(dataset: "countries", text: "area < 1.5"),
        Case(dataset: "countries", text: "area ~ .5"),
        Case(dataset: "countries", text: "gini > 40"),
        Case(dataset: "countries", text: "numericCode < 100"),
        // and, or, not, parentheses.
        Case(dataset: "countries", text: "region = Africa or region = Oceania"),
        Case(dataset: "countries", text: "not region = Europe"),
        Case(dataset: "countries", text: "not (region = Europe or population > 1000000)"),
        Case(dataset: "countries", text: "(region = Americas and population > 10000000) or name ~ isl"),
        // Lists of text and numbers (arrays), lists of objects and objects (jsonb).
        Case(dataset: "countries", text: "borders = FRA"),
        Case(dataset: "countries", text: "borders != FRA"),
        Case(dataset: "countries", text: "borders ~ ru"),
        Case(dataset: "countries", text: "callingCodes = 57"),
        Case(dataset: "countries", text: "timezones ~ UTC+01"),
        Case(dataset: "countries", text: "latlng > 60"),
        Case(dataset: "countries", text: "latlng <= -40"),
        Case(dataset: "countries", text: "altSpellings ~ kingdom"),
        Case(dataset: "countries", text: "currencies.code = EUR"),
        Case(dataset: "countries", text: "currencies.code != EUR"),
        Case(dataset: "countries", text: "currencies.symbol = €"),
        Case(dataset: "countries", text: "currencies ~ dollar"),
        Case(dataset: "countries", text: "languages.iso639_1 = es"),
        Case(dataset: "countries", text: "languages.name ~ arab and region != Asia"),
        Case(dataset: "countries", text: "regionalBlocs.acronym = EU"),
        Case(dataset: "countries", text: "regionalBlocs.acronym !~ a"),
        Case(dataset: "countries", text: "translations ~ norv"),
        Case(dataset: "countries", text: "translations.de = Norwegen"),
        Case(dataset: "countries", text: "translations.ja ~ 島"),
        // An object by its name (issue 28): a language, a currency (not its code), a bloc;
        // translations, which no member names, by their members.
        Case(dataset: "countries", text: "languages = French"),
        Case(dataset: "countries", text: "currencies = euro"),
        Case(dataset: "countries", text: "currencies = EUR"),
        Case(dataset: "countries", text: "regionalBlocs ~ union"),
        Case(dataset: "countries", text: "regionalBlocs != \"European Union\""),
        Case(dataset: "countries", text: "translations = Norwegen"),
        // SWAPI's numbers written as text.
        Case(dataset: "species", text: "average_height > 180"),
        Case(dataset: "species", text: "average_height <= 100"),
        Case(dataset: "species", text: "average_height = unknown"),
        Case(dataset: "species", text: "average_lifespan >= 400"),
        Case(dataset: "species", text: "classification = mammal and average_lifespan > 100"),
        Case(dataset: "species", text: "eye_colors ~ blue"),
        Case(dataset: "species", text: "language !~ basic"),
        Case(dataset: "species", text: "people ~ /66/"),
        Case(dataset: "species", text: "films = https://swapi.dev/api/films/1/"),
        Case(dataset: "people", text: "mass > 80 and gender = male"),
        Case(dataset: "people", text: "height < 100 or height = unknown"),
        Case(dataset: "planets", text: "diameter >= 10000"),
        Case(dataset: "planets", text: "terrain ~ desert"),
        // Cyrillic, folded; nested numbers.
        Case(dataset: "stations", text: "countryTitle = россия"),
        Case(dataset: "stations", text: "cityTitle ~ моск"),
        Case(dataset: "stations", text: "stationTitle ~ ВОКЗАЛ and regionTitle != \"\""),
        Case(dataset: "stations", text: "point.latitude > 60"),
        Case(dataset: "stations", text: "point.longitude < 20 and point.latitude >= 50"),
        Case(dataset: "stations", text: "point ~ 55.7"),
        Case(dataset: "stations", text: "stationId <= 100"),
        Case(dataset: "stations", text: "districtTitle ~ район"),
    ]

    @Test(arguments: filters + ExpressionParityTests.filters) func aFilterAnswersAsInMemory(_ check: Case) throws {
        let table = try TestCluster.shared().bundledTable(check.dataset)
        let memory = try BundledData.generic(check.dataset)
        let expression = try parseFilter(check.text)
        let expected = names(try Filter.run(expression, on: .all([memory])))
        let query = TableQuery(filters: [expression])
        #expect(try allNames(table, query) == expected)
        #expect(try table.count(query) == expected.count)
    }

    static let searches: [Case] = [
        Case(dataset: "countries", text: "united"),
        Case(dataset: "countries", text: "island"),
        Case(dataset: "countries", text: "ISLANDS virgin"),
        Case(dataset: "countries", text: "aland"),
        Case(dataset: "countries", text: "guinea"),
        Case(dataset: "countries", text: "x' OR '1'='1"),
        Case(dataset: "species", text: "an"),
        Case(dataset: "people", text: "sky"),
        Case(dataset: "stations", text: "моск"),
        Case(dataset: "stations", text: "ВОКЗАЛ ж"),
        Case(dataset: "stations", text: "%"),
    ]

    @Test(arguments: searches) func aSearchAnswersAsInMemory(_ check: Case) throws {
        let table = try TestCluster.shared().bundledTable(check.dataset)
        let memory = try BundledData.generic(check.dataset)
        let expected = names(try Search.run(check.text, in: [memory]))
        #expect(try allNames(table, TableQuery(search: check.text)) == expected)
    }

    static let sorts: [Case] = [
        Case(dataset: "countries", text: "population"),
        Case(dataset: "countries", text: "population desc"),
        Case(dataset: "countries", text: "area desc"),
        Case(dataset: "countries", text: "gini"),
        Case(dataset: "countries", text: "name desc"),
        Case(dataset: "countries", text: "capital"),
        Case(dataset: "countries", text: "region desc"),
        Case(dataset: "countries", text: "latlng"),
        Case(dataset: "countries", text: "currencies.code"),
        Case(dataset: "countries", text: "translations.fr desc"),
        Case(dataset: "species", text: "average_height desc"),
        Case(dataset: "species", text: "homeworld"),
        Case(dataset: "stations", text: "stationTitle"),
        Case(dataset: "stations", text: "cityTitle desc"),
        Case(dataset: "stations", text: "point.latitude"),
    ]

    @Test(arguments: sorts) func aSortOrdersAsInMemory(_ check: Case) throws {
        let table = try TestCluster.shared().bundledTable(check.dataset)
        let memory = try BundledData.generic(check.dataset)
        let words = check.text.split(separator: " ").map(String.init)
        let descending = words.count > 1
        let expected = names(try Sort.run(.all([memory]), by: [SortKey(words[0], descending: descending)]))
        #expect(try allNames(table, TableQuery(sort: [SortKey(words[0], descending: descending)])) == expected)
    }

    /// Several keys order as stable sorts by each key, the last key first, do in memory.
    @Test func severalSortKeysOrderAsInMemory() throws {
        let checks: [(String, [SortKey])] = [
            ("countries", [SortKey("region"), SortKey("population", descending: true)]),
            ("countries", [SortKey("subregion", descending: true), SortKey("borders"), SortKey("name")]),
            ("stations", [SortKey("countryTitle"), SortKey("regionTitle", descending: true), SortKey("point.latitude")]),
        ]
        for (dataset, keys) in checks {
            let table = try TestCluster.shared().bundledTable(dataset)
            var results = ResultSet.all([try BundledData.generic(dataset)])
            for key in keys.reversed() { results = try Sort.run(results, by: [key]) }
            #expect(try allNames(table, TableQuery(sort: keys)) == names(results), "\(dataset) \(keys)")
        }
    }

    @Test func aSortKeepsTheFilterAndTheSearchRanking() throws {
        let table = try TestCluster.shared().bundledTable("countries")
        let memory = try BundledData.generic("countries")
        let searched = try Search.run("land", in: [memory])
        let filtered = try Filter.run(try parseFilter("population > 100000"), on: searched)
        let sorted = try Sort.run(filtered, by: [SortKey("region")])
        let query = TableQuery(search: "land", filters: [try parseFilter("population > 100000")], sort: [SortKey("region")])
        #expect(try allNames(table, query) == names(sorted))
    }

    static let groups: [Case] = [
        Case(dataset: "countries", text: "region"),
        Case(dataset: "countries", text: "region subregion"),
        Case(dataset: "countries", text: "borders"),
        Case(dataset: "countries", text: "currencies.code"),
        Case(dataset: "countries", text: "languages.name region"),
        Case(dataset: "countries", text: "area"),
        Case(dataset: "species", text: "classification"),
        Case(dataset: "species", text: "average_lifespan"),
        Case(dataset: "species", text: "homeworld language"),
        Case(dataset: "countries", text: "gini"),
        Case(dataset: "countries", text: "latlng"),
        Case(dataset: "stations", text: "countryTitle"),
        Case(dataset: "stations", text: "countryTitle regionTitle"),
    ]

    /// The same groups (numbers as written, absent values as "") with the same counts, largest
    /// first, equal counts by value (numbers, then text, none last), in the same order.
    @Test(arguments: groups) func aGroupCountsAsInMemory(_ check: Case) throws {
        let table = try TestCluster.shared().bundledTable(check.dataset)
        let memory = try BundledData.generic(check.dataset)
        let fields = check.text.split(separator: " ").map(String.init)
        let expected = try Group.run(.all([memory]), by: GroupSpec(fields: fields)).map { group in
            GroupKey(values: group.values, numbers: group.numbers, count: group.count)
        }
        let found = try table.group(by: GroupSpec(fields: fields)).map { GroupKey(values: $0.values, numbers: $0.numbers, count: $0.count) }
        #expect(found.count == expected.count)
        #expect(Set(found) == Set(expected))
        #expect(found.map(\.count) == found.map(\.count).sorted(by: >))
        #expect(found == expected)
    }

    struct GroupKey: Hashable {
        let values: [String]
        let numbers: [Bool]
        let count: Int
    }
}
