import Foundation
import Testing
@testable import AlmanacCore

/// Value counts (what TAB lists after `filter FIELD = `) come out the same whether counted
/// record by record (a few records of many), read from the field's value index (the whole
/// dataset) or by grouping every record.
@Suite struct ValueCountTests {
    static let fields: [(dataset: String, field: String)] = [
        ("countries", "region"), ("countries", "subregion"), ("countries", "languages.name"), ("countries", "currencies.code"),
        ("countries", "borders"), ("countries", "area"), ("countries", "gini"), ("species", "classification"),
        ("species", "average_lifespan"), ("species", "eye_colors"), ("people", "gender"), ("planets", "climate"),
    ]

    @Test func recordByRecordCountsAsGroupDoes() throws {
        for (name, field) in Self.fields {
            let dataset = try RealData.load(name)
            let results = ResultSet.all([dataset])
            for prefix in ["", "a", "S", "1"] {
                let grouped = ValueCount.counts(try Group.run(results, by: GroupSpec(fields: [field])), field: field, prefix: prefix,
                                                limit: 1000)
                let tallied = try ValueCount.tally(results, field: field, prefix: prefix, limit: 1000, cancellation: .never)
                #expect(tallied == grouped, "\(name).\(field) starting with '\(prefix)'")
                // Every record of the dataset: from its value index.
                let indexed = try MemoryResults(datasets: [dataset]).valueCounts(of: field, where: nil, prefix: prefix, limit: 1000,
                                                                                 quick: true, cancellation: .never)
                #expect(indexed == grouped, "\(name).\(field) starting with '\(prefix)' from the index")
            }
        }
    }

    /// Some records of a dataset (every other one): counted from the value index's rows, as a
    /// tally of those records counts them.
    @Test func countsAmongSomeRecordsFromTheIndexAsATallyCounts() throws {
        for (name, field) in Self.fields {
            let dataset = try RealData.load(name)
            let some = ResultSet(datasets: [dataset], items: dataset.allItems.filter { $0.row % 2 == 0 })
            for prefix in ["", "a", "S", "1"] {
                let tallied = try ValueCount.tally(some, field: field, prefix: prefix, limit: 1000, cancellation: .never)
                let indexed = MemoryResults.indexedCounts(of: field, among: some, prefix: prefix, limit: 1000)
                #expect(indexed == tallied, "\(name).\(field) starting with '\(prefix)' among every other record")
            }
        }
    }

    /// TAB after `filter countryTitle = Россия and stationTitle = с`: the Russian stations'
    /// titles starting with с (folded), each with how many stations have it, as a count over
    /// the file read by Foundation says; 274 titles of 282 stations (python3 over the file).
    @Test func stationTitlesUnderACountryFilterCountAsTheFileSays() throws {
        let russia = FilterExpression.comparison(field: "countryTitle", op: .equal, value: "Россия")
        let results = MemoryResults(datasets: [RealData.stations])
        for (prefix, titles, stations) in [("с", 274, 282), ("Моск", 24, 24), ("санкт", 2, 2)] {
            let expected = try Self.russianStationTitles(startingWith: prefix)
            let found = try #require(try results.valueCounts(of: "stationTitle", where: russia, prefix: prefix, limit: 1000,
                                                             quick: true, cancellation: .never))
            #expect(found == expected, "starting with \(prefix)")
            #expect(found.count == titles && found.reduce(0) { $0 + $1.count } == stations, "starting with \(prefix)")
        }
        // Counted from the value index's rows, not by reading the titles of the 3,136 stations.
        let inRussia = try Filter.run(russia, on: ResultSet.all([RealData.stations]))
        #expect(MemoryResults.indexedCounts(of: "stationTitle", among: inRussia, prefix: "с", limit: 1000) != nil)
    }

    /// TAB after `filter borders.name = Swe`: a path across a link is counted as group counts
    /// it, whether few records hold the beginning or many: Sweden borders 2 countries (Finland,
    /// Norway) and Norway 3, as the countries file says; no value was offered before.
    @Test func aPathAcrossALinkCountsItsValuesUnderABeginning() throws {
        let countries = RawData.object("countries.json") as! [[String: Any]]
        let names = Dictionary(uniqueKeysWithValues: countries.map { ($0["alpha3Code"] as! String, $0["name"] as! String) })
        func neighbours(of name: String) -> Int {
            countries.filter { (($0["borders"] as? [String]) ?? []).contains { names[$0] == name } }.count
        }
        let results = MemoryResults(datasets: [try #require(LinkIndexTests.catalog.dataset("countries"))])
        for (prefix, name) in [("Swe", "Sweden"), ("norw", "Norway")] {
            let found = try results.valueCounts(of: "borders.name", where: nil, prefix: prefix, limit: 100, quick: false,
                                                cancellation: .never)
            #expect(found == [ValueCount(name, count: neighbours(of: name))], "starting with \(prefix)")
        }
        #expect(neighbours(of: "Sweden") == 2 && neighbours(of: "Norway") == 3)
        // Under a condition that leaves few records (the 9 of Southern Asia), their neighbours
        // starting with I, as the file says: India 5, Iran 2, Iraq 1.
        let south = FilterExpression.comparison(field: "subregion", op: .equal, value: "Southern Asia")
        let southern = countries.filter { $0["subregion"] as? String == "Southern Asia" }
        var expected: [String: Int] = [:]
        for country in southern {
            for code in Set((country["borders"] as? [String]) ?? []) where names[code]?.hasPrefix("I") == true {
                expected[names[code]!, default: 0] += 1
            }
        }
        let found = try #require(try results.valueCounts(of: "borders.name", where: south, prefix: "I", limit: 100, quick: false,
                                                         cancellation: .never))
        #expect(Dictionary(uniqueKeysWithValues: found.map { ($0.value, $0.count) }) == expected)
        #expect(expected == ["India": 5, "Iran (Islamic Republic of)": 2, "Iraq": 1])
    }

    /// A record that holds a number twice counts once for it, as group counts it: 0 is in the
    /// first two records (twice in the first), 1 in the first, 2 in the third.
    @Test func aNumberTwiceInARecordCountsOnce() throws {
        let scratch = Scratch()
        let file = scratch.file("twice.json", #"[{"n": [0, 0, 1]}, {"n": [0]}, {"n": [2, 2.0]}]"#)
        let dataset = try DatasetLoader().load(LoadRequest(name: "twice", source: .file(path: file), model: GenericModel.self),
                                               progress: LoadProgress(), cancellation: .never)
        let results = ResultSet.all([dataset])
        let expected = [ValueCount("0", count: 2), ValueCount("1", count: 1), ValueCount("2", count: 1), ValueCount("2.0", count: 1)]
        #expect(try ValueCount.tally(results, field: "n", prefix: "", limit: 10, cancellation: .never) == expected)
        #expect(try MemoryResults(datasets: [dataset]).valueCounts(of: "n", where: nil, prefix: "", limit: 10, quick: true,
                                                                   cancellation: .never) == expected)
    }

    /// The stations (one per stationId, the first listed) whose country is Россия, their
    /// titles starting with `prefix` case- and diacritic-insensitively, most first, then by
    /// folding, then by code point: read by Foundation from the bundled file.
    static func russianStationTitles(startingWith prefix: String) throws -> [ValueCount] {
        func fold(_ text: String) -> String { text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
        let root = try #require(RawData.object("stations.json") as? [String: Any])
        var seen: Set<Int> = []
        var counts: [String: Int] = [:]
        for list in ["citiesFrom", "citiesTo"] {
            for city in try #require(root[list] as? [[String: Any]]) {
                for station in city["stations"] as? [[String: Any]] ?? [] {
                    guard let id = station["stationId"] as? Int, seen.insert(id).inserted,
                          station["countryTitle"] as? String == "Россия", let title = station["stationTitle"] as? String,
                          fold(title).hasPrefix(fold(prefix)) else { continue }
                    counts[title, default: 0] += 1
                }
            }
        }
        return counts.sorted { a, b in
            if a.value != b.value { return a.value > b.value }
            let (first, second) = (Array(fold(a.key).utf8), Array(fold(b.key).utf8))
            return first != second ? first.lexicographicallyPrecedes(second) : Array(a.key.utf8).lexicographicallyPrecedes(Array(b.key.utf8))
        }.map { ValueCount($0.key, count: $0.value) }
    }
}
