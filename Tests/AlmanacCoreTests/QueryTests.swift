import Foundation
import Testing
@testable import AlmanacCore

func names(_ results: ResultSet) -> [String] {
    results.items.map { results.dataset(of: $0).name(of: $0.row) }
}

func filter(_ text: String, _ dataset: Dataset) throws -> ResultSet {
    let words = text.split(separator: " ").map { (text: String($0), isQuoted: false) }
    return try Filter.run(FilterExpression.parse(FilterExpression.tokens(words)), on: .all([dataset]))
}

@Suite struct SearchTests {
    @Test func exactAndPrefixNamesComeBeforeOtherNames() throws {
        let found = names(try Search.run("Iran", in: [RealData.countries]))
        let iran = try #require(found.firstIndex(of: "Iran (Islamic Republic of)"))
        let cook = try #require(found.firstIndex(of: "Cook Islands"))
        #expect(iran < cook)
        #expect(found.first == "Iran (Islamic Republic of)")
    }

    @Test func nativeAndTranslatedNamesAreSearched() throws {
        #expect(names(try Search.run("norge", in: [RealData.countries])).contains("Norway"))
        #expect(names(try Search.run("aland", in: [RealData.countries])).first == "Åland Islands")
    }

    @Test func cyrillicIgnoresCase() throws {
        let found = try Search.run("моск", in: [RealData.stations])
        #expect(found.count > 20)
        #expect(found.items.contains { StationModel.station(RealData.stations, row: $0.row).cityTitle == "город Москва" })
        #expect(try Search.run("МОСК", in: [RealData.stations]).items == found.items)
    }

    @Test func severalWordsMustAllMatch() throws {
        let found = names(try Search.run("united kingdom", in: [RealData.countries]))
        #expect(found == ["United Kingdom of Great Britain and Northern Ireland"])
    }
}

@Suite struct FilterTests {
    @Test func regionAndPopulation() throws {
        let found = try filter("region = Europe and population > 10000000", RealData.countries)
        #expect(names(found).contains("Germany"))
        #expect(!names(found).contains("Norway"))
        #expect(found.items.allSatisfy { Country(RealData.countries.record($0.row)).region == "Europe" })
    }

    @Test func nestedAndListFields() throws {
        #expect(names(try filter("currencies.code = EUR", RealData.countries)).contains("France"))
        #expect(names(try filter("languages.iso639_1 = es", RealData.countries)).contains("Spain"))
        #expect(names(try filter("regionalBlocs.acronym = EU", RealData.countries)).contains("Germany"))
        #expect(names(try filter("callingCodes = 57", RealData.countries)) == ["Colombia"])
    }

    @Test func speciesNumbersFromText() throws {
        let found = names(try filter("classification = mammal and average_lifespan > 100", RealData.species))
        #expect(found == ["Human", "Wookie", "Yoda's species", "Pau'an"])
    }

    @Test("directions = from and countryTitle = Россия: exactly the Russian stations listed under citiesFrom")
    func stationDirections() throws {
        let found = try filter("directions = from and countryTitle = Россия", RealData.stations)
        // Computed from the file itself: a station serves departures when it appears under citiesFrom.
        let file = try #require(RawData.object("stations.json") as? [String: Any])
        var expected = Set<Int>()
        for city in file["citiesFrom"] as? [[String: Any]] ?? [] {
            for station in city["stations"] as? [[String: Any]] ?? [] where station["countryTitle"] as? String == "Россия" {
                if let id = station["stationId"] as? Int { expected.insert(id) }
            }
        }
        let ids = found.items.map { StationModel.station(RealData.stations, row: $0.row).id }
        #expect(ids.count == expected.count)
        #expect(Set(ids) == expected)
    }

    @Test func unknownFieldSuggests() {
        #expect(throws: QueryError.unknownField("popluation", suggestion: "population")) {
            try filter("popluation > 5", RealData.countries)
        }
    }

    @Test("a word compared with a number field names the field, its type and the word")
    func typeMismatchNamesTheType() {
        #expect(throws: QueryError.typeMismatch(field: "population", type: "number", message: "'many' is not a number")) {
            try filter("population > many", RealData.countries)
        }
        #expect(QueryError.typeMismatch(field: "population", type: "number", message: "'many' is not a number").description
            == "population is a number; 'many' is not a number")
    }

    @Test("parentheses and not: Asian and Oceanian countries of at most a million people, as the file lists them")
    func parenthesesAndNot() throws {
        let found = try filter("(region = Asia or region = Oceania) and not population > 1000000", RealData.countries)
        let countries = try #require(RawData.object("countries.json") as? [[String: Any]])
        let expected = countries.filter { country in
            let region = country["region"] as? String
            let population = (country["population"] as? NSNumber)?.doubleValue ?? 0
            return (region == "Asia" || region == "Oceania") && !(population > 1_000_000)
        }.map { $0["name"] as? String ?? "" }
        #expect(!expected.isEmpty)
        #expect(names(found) == expected)
    }
}

@Suite struct SortAndGroupTests {
    @Test func groupStationsByCountryAndCity() throws {
        let groups = try Group.run(.all([RealData.stations]), by: GroupSpec(fields: ["countryTitle"]))
        #expect(groups.first?.values == ["Россия"])
        #expect(groups.first?.count == 3136)
    }

    @Test func sortByPopulationDescending() throws {
        let sorted = try Sort.run(.all([RealData.countries]), by: [SortKey("population", descending: true)])
        #expect(names(sorted).first == "China")
    }
}

@Suite struct FoldingTests {
    /// The remembered per-character folding must agree with Foundation on every name in the data.
    @Test func fastFoldingAgreesWithFoundationOnAllNames() {
        var checked = 0
        for dataset in [RealData.countries, RealData.species, RealData.stations, RealData.planets, RealData.people] {
            let paths = dataset.fields.paths.map { dataset.compile(FieldPath($0)) }
            for row in 0..<dataset.count {
                for path in paths {
                    dataset.forEachValue(of: path, row: row) { value in
                        let text = dataset.text(of: value)
                        #expect(Folding.fold(text) == Folding.foundationFold(text), "\(text)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 50_000)
    }

    @Test func examples() {
        #expect(Folding.fold("Åland Islands") == "aland islands")
        #expect(Folding.fold("МОСКВА") == "москва")
        #expect(Folding.fold("Йошкар-Ола") == "иошкар-ола")
        #expect(Folding.fold("東京") == Folding.foundationFold("東京"))
        #expect(Folding.fold("e\u{301}") == "e")
    }
}

@Suite struct ScanWithoutIndexTests {
    /// While a large dataset's index builds, search scans; both must give the same answer.
    @Test(arguments: ["моск", "united kingdom", "aland", "ав", "norge", "x", "мос", "мо", "ская", "bus", "ул. ", "東京", "ё"])
    func scanningAgreesWithTheIndex(text: String) throws {
        for dataset in [RealData.countries, RealData.stations] {
            let indexed = try NameIndex.of(dataset).search(text)
            let scanned = try NameIndex.scanWithoutIndex(dataset, text, cancellation: .never)
            #expect(indexed.map(\.row) == scanned.map(\.row), "\(dataset.name) \(text)")
            #expect(indexed.map(\.rank) == scanned.map(\.rank), "\(dataset.name) \(text)")
        }
    }
}
