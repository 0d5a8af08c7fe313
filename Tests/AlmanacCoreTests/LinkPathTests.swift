import Foundation
import Testing
@testable import AlmanacCore

/// Paths across links (`homeworld.climate`), computed over columns and checked against the
/// raw files read by Foundation.
@Suite struct LinkPathTests {
    /// The datasets, in a catalog whose links their paths cross.
    static let catalog = LinkIndexTests.catalog
    static func dataset(_ name: String) -> Dataset { catalog.dataset(name)! }
    static func objects(_ file: String) -> [[String: Any]] { RawData.object(file) as! [[String: Any]] }

    // Made once: a computed property parsed a file for every station a loop looked up (80 s of CPU).
    nonisolated(unsafe) static let planetsByURL: [String: [String: Any]] = Dictionary(uniqueKeysWithValues: objects("planets.json").map { ($0["url"] as! String, $0) })
    nonisolated(unsafe) static let speciesByURL: [String: [String: Any]] = Dictionary(uniqueKeysWithValues: objects("species.json").map { ($0["url"] as! String, $0) })
    nonisolated(unsafe) static let countriesByCode: [String: [String: Any]] = Dictionary(uniqueKeysWithValues: objects("countries.json").map { ($0["alpha3Code"] as! String, $0) })

    func names(_ text: String, _ dataset: String) throws -> [String] {
        AlmanacCoreTests.names(try Filter.run(FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: text))),
                                              on: .all([Self.dataset(dataset)])))
    }

    func values(_ text: String, _ dataset: String) throws -> ValueVector {
        let dataset = Self.dataset(dataset)
        return try ComputedValues.evaluate(Expression.parse(text), over: .all([dataset]))
    }

    @Test("homeworld.climate ~ arid finds the 19 people of arid worlds, as the planets file says")
    func oneHop() throws {
        let expected = Self.objects("people.json").filter { person in
            (Self.planetsByURL[person["homeworld"] as! String]?["climate"] as? String)?.lowercased().contains("arid") == true
        }.map { $0["name"] as! String }
        #expect(expected.count == 19)
        #expect(try names("homeworld.climate ~ arid", "people") == expected)
        // The same path in an expression, and inside a larger condition.
        #expect(try names("homeworld.climate ~ 'arid' and height > 0", "people") == expected.filter { name in
            Self.objects("people.json").first { $0["name"] as! String == name }.flatMap { Double($0["height"] as! String) } != nil
        })
    }

    @Test("species.homeworld.climate crosses two links; a list of species matches when any does")
    func twoHops() throws {
        let expected = Self.objects("people.json").filter { person in
            (person["species"] as! [String]).contains { url in
                guard let homeworld = Self.speciesByURL[url]?["homeworld"] as? String else { return false }
                return (Self.planetsByURL[homeworld]?["climate"] as? String)?.lowercased().contains("temperate") == true
            }
        }.map { $0["name"] as! String }
        #expect(try names("species.homeworld.climate ~ temperate", "people") == expected)
        #expect(expected.count == 28)
    }

    @Test("borders.name = Norway: a list of codes followed to the countries; borders.region = Asia is any neighbour")
    func listsOfCodes() throws {
        let countries = Self.objects("countries.json")
        func borders(_ country: [String: Any]) -> [[String: Any]] {
            ((country["borders"] as? [String]) ?? []).compactMap { Self.countriesByCode[$0] }
        }
        let nextToNorway = countries.filter { borders($0).contains { $0["name"] as? String == "Norway" } }.map { $0["name"] as! String }
        #expect(try names("borders.name = Norway", "countries") == nextToNorway)
        #expect(nextToNorway.sorted() == ["Finland", "Russian Federation", "Sweden"])
        let asian = countries.filter { borders($0).contains { $0["region"] as? String == "Asia" } }.map { $0["name"] as! String }
        #expect(try names("borders.region = Asia", "countries") == asian)
        let notAsian = countries.filter { !borders($0).contains { $0["region"] as? String == "Asia" } }.map { $0["name"] as! String }
        #expect(try names("borders.region != Asia", "countries") == notAsian)
        let counts = try values("count(borders.name)", "countries").numbers
        #expect(counts == countries.map { Double(borders($0).count) })
    }

    /// Each distinct station's country by its Russian name (Беларусь and Молдова are spelt
    /// otherwise in REST Countries: Белоруссия, Молдавия).
    static let stationCountries: [String] = {
        let raw = RawData.object("stations.json") as! [String: Any]
        var titles: [Int: String] = [:]
        for side in ["citiesFrom", "citiesTo"] {
            for city in raw[side] as! [[String: Any]] {
                for station in city["stations"] as! [[String: Any]] where titles[station["stationId"] as! Int] == nil {
                    titles[station["stationId"] as! Int] = station["countryTitle"] as? String
                }
            }
        }
        var byRussianName: [String: String] = ["беларусь": "BLR", "молдова": "MDA"]
        for country in objects("countries.json") {
            if let russian = (country["translations"] as? [String: Any])?["ru"] as? String { byRussianName[russian.lowercased()] = country["alpha3Code"] as? String }
        }
        return titles.values.map { byRussianName[$0.lowercased()]! }
    }()

    @Test("group country.region over the stations: every station in its country's region")
    func groupByALinkedField() throws {
        var expected: [String: Int] = [:]
        for code in Self.stationCountries { expected[Self.countriesByCode[code]!["region"] as! String, default: 0] += 1 }
        let groups = try Group.run(.all([Self.dataset("stations")]), by: GroupSpec(fields: ["country.region"]))
        #expect(Dictionary(uniqueKeysWithValues: groups.map { ($0.values[0], $0.count) }) == expected)
        #expect(expected == ["Europe": 4002, "Asia": 35])
    }

    @Test("reverse links: count(stations) per country, count(residents) per planet, sorted")
    func reverseLinks() throws {
        var perCountry: [String: Int] = [:]
        for code in Self.stationCountries { perCountry[Self.countriesByCode[code]!["name"] as! String, default: 0] += 1 }
        let countries = Self.dataset("countries")
        let counts = try values("count(stations)", "countries").numbers
        for row in 0..<countries.count { #expect(Int(counts[row]) == perCountry[countries.name(of: row)] ?? 0) }
        let sorted = try Sort.run(.all([countries]), by: [SortKey("count(stations)", descending: true)])
        #expect(AlmanacCoreTests.names(sorted).prefix(3) == ["Russian Federation", "Ukraine", "Lithuania"])
        let planets = Self.objects("planets.json").sorted { ($0["residents"] as! [Any]).count > ($1["residents"] as! [Any]).count }
        let byResidents = try Sort.run(.all([Self.dataset("planets")]), by: [SortKey("count(people)", descending: true)])
        #expect(AlmanacCoreTests.names(byResidents).prefix(2) == planets.prefix(2).map { $0["name"] as! String }[...])
    }

    @Test("a path across a scalar link is one value per record; across a list, a list")
    func valuesAndLists() throws {
        let species = Self.objects("species.json")
        let climates = try values("homeworld.climate", "species")
        #expect(climates.offsets == nil)
        // "unknown" is no value, as everywhere in almanac.
        #expect(climates.texts == species.map { ($0["homeworld"] as? String).flatMap { Self.planetsByURL[$0]?["climate"] as? String }
                .flatMap { $0 == "unknown" ? nil : $0 } })
        let diameters = try values("homeworld.diameter * 2", "species").numbers
        #expect(diameters.filter { !$0.isNaN }.count == species.filter { ($0["homeworld"] as? String).flatMap { Self.planetsByURL[$0] }
                .flatMap { Double($0["diameter"] as! String) } != nil }.count)
        let residents = try values("residents.name", "planets")
        #expect(residents.offsets != nil)
        #expect(residents.count == Self.objects("planets.json").reduce(0) { $0 + ($1["residents"] as! [Any]).count })
    }

    @Test("a path through a field that is not a link names it and lists the links; a cycle is fine")
    func errorsAndCycles() throws {
        #expect(throws: QueryError.notALink(path: "name.climate", message: "in 'name.climate', name is a field of people, not a link; the links of people are homeworld, species, planets")) {
            try names("name.climate = x", "people")
        }
        #expect(throws: QueryError.notALink(path: "homewrld.climate", message: "in 'homewrld.climate', 'homewrld' is no field or link of people; the links of people are homeworld, species, planets — did you mean 'homeworld'?")) {
            try names("homewrld.climate = x", "people")
        }
        #expect(throws: QueryError.notALink(path: "homeworld.climat", message: "in 'homeworld.climat', planets has no field or link 'climat' — did you mean 'climate'?")) {
            try names("homeworld.climat = x", "people")
        }
        // A key inside an object stays an unknown field.
        #expect(throws: QueryError.unknownField("translations.xx", suggestion: "translations.br")) { try names("translations.xx = x", "countries") }
        // There and back: people whose homeworld has a resident of their species.
        let cycle = try names("homeworld.residents.homeworld.name = Tatooine", "people")
        #expect(cycle == (try names("homeworld.name = Tatooine", "people")))
    }
}
