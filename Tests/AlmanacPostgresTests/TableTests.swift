import AlmanacCore
import Foundation
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// Attaching tables and views, and each operation on a table with a column of every kind.
@Suite struct TableTests {
    func kinds() throws -> PostgresTable {
        let cluster = try TestCluster.shared()
        try cluster.kindsTable()
        return try PostgresTable.attach(name: "kinds", url: PostgresURL(cluster.url(table: "kinds")))
    }

    @Test func theCatalogGivesColumnsKindsKeyAndName() throws {
        let schema = try kinds().schema
        #expect(schema.kind == .table)
        #expect(schema.quotedName == "\"public\".\"kinds\"")
        #expect(schema.columns.map(\.name) == ["id", "name", "city", "population", "score", "ratio", "active", "born", "tags", "sizes", "info", "notes"])
        #expect(schema.columns.map(\.kind) == [.number, .text, .text, .number, .number, .number, .boolean, .other, .text, .number, .json, .json])
        #expect(schema.columns.map(\.isArray) == [false, false, false, false, false, false, false, false, true, true, false, false])
        #expect(schema.columns.map(\.typeName)[5] == "numeric(6,3)")
        #expect(schema.primaryKey == [0])
        #expect(schema.layout.nameField == "name")
        #expect(schema.naturalOrder == ["\"id\""])
        #expect(schema.folding.method == .unicode)
    }

    @Test func stationsAreNamedByTheirTitleOnATableAsInMemory() throws {
        // The first `…Title` key of a station is its countryTitle: the model's name wins.
        let table = try TestCluster.shared().bundledTable("stations")
        #expect(table.schema.columns.first?.name == "countryTitle")
        #expect(table.schema.layout.nameField == "stationTitle")
        #expect(try BundledData.load("stations").layout.nameField == "stationTitle")
        #expect(try BundledData.generic("stations").layout.nameField == "stationTitle")
        // Records without all the stations' fields keep the generic choice.
        #expect(GenericModel.layout(keys: [("countryTitle", true, true), ("stationTitle", true, true)]).nameField == "countryTitle")
    }

    @Test func viewsAndQuotedNamesAttach() throws {
        let cluster = try TestCluster.shared()
        try cluster.kindsTable()
        let view = try PostgresTable.attach(name: "v", url: PostgresURL(cluster.url(table: "kinds_view")))
        #expect(view.schema.kind == .view)
        #expect(view.schema.naturalOrder.isEmpty)
        #expect(try view.count() == 4)
        let orders = try PostgresTable.attach(name: "o", url: PostgresURL(cluster.url(table: "%22Sales%20Data%22.%22Orders%202024%22")))
        #expect(orders.schema.quotedName == "\"Sales Data\".\"Orders 2024\"")
        #expect(orders.schema.layout.nameField == "Order Id")
        #expect(try orders.find("B-2").rows.count == 1)
        #expect(try orders.count(TableQuery(filters: [parseFilter("Amount > 15")])) == 1)
        // Unquoted names fold to lower case, as in SQL.
        #expect(try PostgresTable.attach(name: "k", url: PostgresURL(cluster.url(table: "KINDS"))).schema.name.name == "kinds")
    }

    @Test func anUnknownTableSaysWhichAndSuggests() throws {
        let cluster = try TestCluster.shared()
        try cluster.kindsTable()
        #expect(throws: PostgresError.noSuchTable("kinsd' — did you mean 'kinds")) {
            try PostgresTable.attach(name: "x", url: PostgresURL(cluster.url(table: "kinsd")))
        }
        #expect(throws: PostgresError.self) { try PostgresTable.attach(name: "x", url: PostgresURL(cluster.url())) }
        let error = PostgresError.noSuchTable("kinsd' — did you mean 'kinds")
        #expect(error.description == "no table or view 'kinsd' — did you mean 'kinds' in this database")
    }

    @Test func rowsComeBackAsRecords() throws {
        let page = try kinds().page(limit: 10)
        #expect(page.count == 5)
        #expect(page.keys.map { $0.first! } == ["1", "2", "3", "4", "5"])
        let first = JSONWriter.string(page.rows.record(0))
        #expect(first == #"{"id":1,"name":"Åland","city":"Mariehamn","population":30000,"score":1.5,"ratio":0.125,"active":true,"born":"2001-02-03","tags":["island","swedish"],"sizes":[1,2],"info":{"rank": 3, "codes": ["AX", "ALA"], "address": {"zip": 22100, "city": "Mariehamn"}},"notes":{"a": [1, {"b": "x"}]}}"#.replacingOccurrences(of: ": ", with: ":").replacingOccurrences(of: ", ", with: ","))
        #expect(page.rows.name(of: 1) == "Москва")
        let third = page.rows.record(2)
        #expect(JSONWriter.string(third).contains(#""city":null"#))
        #expect(page.rows.layout.nameField == "name")
    }

    @Test func keysetPagingContinuesWhereOffsetPagingWould() throws {
        let table = try kinds()
        let first = try table.page(limit: 2)
        let next = try table.page(limit: 2, after: first.lastKey)
        let byOffset = try table.page(offset: 2, limit: 2)
        #expect(names(next.rows) == names(byOffset.rows))
        #expect(names(next.rows) == ["x' OR '1'='1", "Zürich"])
        #expect(try table.pageSQL(limit: 2, after: ["2"]).text.contains("(t.\"id\") > ($1::integer)"))
    }

    @Test func showFindsByKeyThenNameThenBeginning() throws {
        let table = try kinds()
        let byKey = try table.find("4")
        #expect(byKey.match == .identity)
        #expect(names(byKey.rows) == ["Zürich"])
        let byName = try table.find("zurich")
        #expect(byName.match == .name)
        #expect(names(byName.rows) == ["Zürich"])
        // An exact name (folded) wins over names beginning with it, as in memory.
        #expect(names(try table.find("ALAND").rows) == ["Åland"])
        let ambiguous = try table.find("ALAN")
        #expect(ambiguous.match == .namePrefix)
        #expect(ambiguous.total == 2)
        #expect(names(ambiguous.rows) == ["Åland", "aland islands"])
        #expect(try table.find("мос").match == .namePrefix)
        #expect(try table.find("nothing like it").total == 0)
    }

    /// Typed as memory types the same values (after an export, `fields` of the file says the
    /// same, but for `or null` where the file writes a NULL as null), the catalog's type beside.
    @Test func fieldsTypeColumnsAsMemoryDoes() throws {
        let fields = try kinds().fields()
        let types = Dictionary(uniqueKeysWithValues: fields.map { ($0.path, $0.type) })
        let stored = Dictionary(uniqueKeysWithValues: fields.map { ($0.path, $0.stored) })
        #expect(types == ["id": "number", "name": "text", "city": "text", "population": "number", "score": "number", "ratio": "number",
                          "active": "boolean", "born": "date", "tags": "list of text or null", "sizes": "list of number", "info": "object",
                          "info.address": "object", "info.codes": "list of text or number", "info.rank": "number (as text)",
                          // The json column: read as jsonb, an object, a number in a list, a string.
                          "notes": "list of text or number or object", "notes.a": "list of number or object"])
        #expect(stored["tags"] == "text[]" && stored["city"] == "character varying(40)" && stored["notes"] == "json" && stored["info.rank"] == "json")
    }

    @Test func describeProfilesNumbersAndText() throws {
        let table = try kinds()
        let profiles = try table.describe(fields: ["population", "name", "tags", "info.rank"])
        let population = try #require(profiles.first)
        let values: [Double] = [30000, 13010112, 421878, 30129]
        #expect(population.present == 4 && population.absent == 1 && population.distinct == 4)
        #expect(population.minimum == 30000 && population.maximum == 13010112)
        #expect(population.mean == values.reduce(0, +) / 4)
        #expect(population.quartiles == [0.25, 0.5, 0.75].map { percentile($0, of: values) })
        // The database counts histogram's twelve bins: 0–1.1 million holds three, the last one.
        #expect(population.distribution == [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
        #expect(population.distribution == Histogram.numbers(values, bins: 12).bins.map(\.count))
        let name = profiles[1]
        #expect(name.minimum == nil && name.common.count == 5 && name.distinct == 5 && name.distribution == nil)
        let tags = profiles[2]
        #expect(tags.present == 4 && tags.absent == 1 && tags.distinct == 5)
        #expect(tags.common.first?.value == "island" && tags.common.first?.count == 2)
        let born = try #require(try table.describe(fields: ["born"]).first)
        // 1147-04-04, 2001-02-03 and 2020-12-31 as seconds since 1970 (proleptic Gregorian, UTC).
        let days: [Double] = [-300_502, 11_356, 18_627]
        let seconds = days.map { $0 * 86_400 }
        #expect(born.type == "date" && born.isDate && born.present == 3 && born.absent == 2 && born.distinct == 3)
        #expect(born.minimum == seconds[0] && born.maximum == seconds[2] && born.quartiles?[1] == seconds[1])
        #expect(born.distribution == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2])
        #expect(born.distribution == Histogram.dates(seconds, bins: 12).bins.map(\.count))
        let rank = profiles[3]
        #expect(rank.present == 4 && rank.minimum == 1 && rank.maximum == 4.5)
    }

    @Test func groupsCountAggregateAndShare() throws {
        let table = try TestCluster.shared().bundledTable("countries")
        let memory = try BundledData.generic("countries")
        let spec = GroupSpec(fields: ["region"], aggregates: [
            Aggregate(.sum, "population"), Aggregate(.avg, "area"), Aggregate(.min, "population"), Aggregate(.max, "name"),
            Aggregate(.distinct, "subregion"), Aggregate(.count, "gini"),
        ])
        let groups = try table.group(by: spec)
        // Expected values from the records themselves.
        var byRegion: [String: [JSONValue]] = [:]
        for row in 0..<memory.count {
            let record = memory.record(row)
            byRegion[record["region"]?.string ?? "", default: []].append(record)
        }
        #expect(groups.count == byRegion.count)
        for group in groups {
            let records = try #require(byRegion[group.values[0]])
            #expect(group.count == records.count)
            #expect(abs(group.percent - Double(records.count) * 100 / Double(memory.count)) < 1e-9)
            let populations = records.compactMap { $0["population"]?.number }
            let areas = records.compactMap { $0["area"]?.number }
            #expect(group.aggregates[0] == NumberFormat.plain(populations.reduce(0, +)))
            #expect(abs(Double(group.aggregates[1]!)! - areas.reduce(0, +) / Double(areas.count)) < 1e-6)
            #expect(group.aggregates[2] == NumberFormat.plain(populations.min()!))
            // Text as sort orders it: folded, then by code point; absent values (`""`) are not values.
            #expect(group.aggregates[3] == records.compactMap { $0["name"]?.string }.max { a, b in
                Folding.fold(a) != Folding.fold(b) ? Array(Folding.fold(a).utf8).lexicographicallyPrecedes(Array(Folding.fold(b).utf8))
                    : Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            })
            #expect(group.aggregates[4] == String(Set(records.compactMap { $0["subregion"]?.string }.filter { !$0.isEmpty }).count))
            #expect(group.aggregates[5] == String(records.filter { $0["gini"]?.number != nil }.count))
        }
    }

    @Test func tabCompletesNamesAndValues() throws {
        let table = try kinds()
        #expect(table.completeNames("ал") == [])
        #expect(table.completeNames("AL") == ["aland islands", "Åland"].sorted { Folding.fold($0) < Folding.fold($1) })
        #expect(table.completeValues(of: "city", prefix: "m") == ["Mariehamn", "Москва"].filter { Folding.fold($0).hasPrefix("m") })
        #expect(table.completeValues(of: "tags", prefix: "") == ["big city", "capital", "island", "quote\"d", "swedish"])
        #expect(table.completeValues(of: "info.address.city", prefix: "z") == ["Zürich"])
        #expect(table.completeValues(of: "no_such_field", prefix: "") == [])
    }

    @Test func exportStreamsInBatchesThroughACursor() throws {
        let cluster = try TestCluster.shared()
        try cluster.once("twenty") {
            try cluster.execute("CREATE TABLE twenty AS SELECT i AS id, 'row ' || i AS name FROM generate_series(1, 20500) AS i")
        }
        let table = try PostgresTable.attach(name: "twenty", url: PostgresURL(cluster.url(table: "twenty")))
        var batches: [Int] = []
        var seen = 0
        var ordered = true
        let total = try table.export(TableQuery(sort: [SortKey("id", descending: true)]), batch: 1000) { rows in
            batches.append(rows.count)
            for row in 0..<rows.count {
                ordered = ordered && rows.record(row)["id"]?.number == Double(20500 - seen)
                seen += 1
            }
        }
        #expect(total == 20500)
        #expect(batches == Array(repeating: 1000, count: 20) + [500])
        #expect(ordered)
        // The transaction ended: the connection is free for the next statement.
        #expect(try table.count() == 20500)
    }
}

/// As percentile_cont: interpolated between the two nearest ranks.
func percentile(_ fraction: Double, of values: [Double]) -> Double {
    let sorted = values.sorted()
    let position = fraction * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    return sorted[lower] + (position - Double(lower)) * (sorted[upper] - sorted[lower])
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        document.member(key, of: index).map { JSONValue(document: document, index: $0) }
    }
    var string: String? { document.kind(at: index) == .string ? document.string(at: index) : nil }
    var number: Double? { document.kind(at: index) == .number ? document.number(at: index) : nil }
}
