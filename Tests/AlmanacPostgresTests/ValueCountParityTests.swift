import AlmanacCore
import Foundation
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// What TAB lists after `filter FIELD = ` and explanations read: each value of a field with how
/// many rows have it, counted by the database (GROUP BY … LIMIT, bound parameters) as in memory.
@Suite struct ValueCountParityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let dataset: String
        let field: String
        var condition: String?
        var prefix = ""
        var limit = 100
        var testDescription: String { "\(dataset): \(condition.map { $0 + " and " } ?? "")\(field) = \(prefix)… (\(limit))" }
    }

    static let cases: [Case] = [
        Case(dataset: "countries", field: "region"),
        Case(dataset: "countries", field: "subregion", condition: "region = Europe"),
        Case(dataset: "countries", field: "subregion", prefix: "south"),
        Case(dataset: "countries", field: "currencies.code", prefix: "EU"),
        Case(dataset: "countries", field: "languages.name", condition: "region = Europe", limit: 5),
        Case(dataset: "countries", field: "region", condition: "population > 1e9"),
        // Objects by their names; translations, which no member names, by their members.
        Case(dataset: "countries", field: "languages", condition: "region = Europe", limit: 5),
        Case(dataset: "countries", field: "currencies", prefix: "eu"),
        Case(dataset: "countries", field: "translations", prefix: "nor"),
        Case(dataset: "species", field: "classification", prefix: "MAM"),
        Case(dataset: "stations", field: "countryTitle", limit: 3),
        Case(dataset: "stations", field: "regionTitle", condition: "countryTitle = россия", prefix: "моск"),
    ]

    @Test(arguments: cases) func valuesCountAsInMemory(_ check: Case) throws {
        let table = try TestCluster.shared().bundledTable(check.dataset)
        let memory = MemoryResults(datasets: [try BundledData.generic(check.dataset)])
        let condition = try check.condition.map(parseFilter)
        let expected = try #require(try memory.valueCounts(of: check.field, where: condition, prefix: check.prefix, limit: check.limit,
                                                           quick: false, cancellation: .never))
        let counted = try table.valueCounts(TableQuery(filters: condition.map { [$0] } ?? []), of: check.field, prefix: check.prefix,
                                            limit: check.limit)
        #expect(counted == expected)
        // Through the results, as TAB asks (quick: a moment, then the values alone).
        let quick = try PostgresResults(table: table).valueCounts(of: check.field, where: condition, prefix: check.prefix,
                                                                  limit: check.limit, quick: true, cancellation: .never)
        #expect(quick == nil || quick == expected)
    }

    @Test func aPrefixIsABoundParameter() throws {
        let table = try TestCluster.shared().bundledTable("countries")
        #expect(try table.valueCounts(TableQuery(), of: "region", prefix: "x' OR '1'='1", limit: 10).isEmpty)
        #expect(try table.valueCounts(TableQuery(), of: "region", prefix: "%", limit: 10).isEmpty)
    }

    /// On the 2,000,000-row table: exact counts when waited for; TAB's quick question answers or
    /// gives up within its moment; a long count stops at Ctrl-C.
    @Test func theBigTableCountsQuicklyOrNotAtAll() throws {
        let cluster = try TestCluster.shared()
        try cluster.bigTable()
        let table = try PostgresTable.attach(name: "big", url: PostgresURL(cluster.url(table: "big")))
        // `c` || i % 50 where i % 10 != 0: 45 values, each of 2,000,000 / 50 rows; ties by value.
        let expected = ["c1", "c11", "c12"].map { ValueCount($0, count: TestCluster.bigRows / 50) }
        #expect(try table.valueCounts(TableQuery(), of: "category", prefix: "", limit: 3) == expected)
        let results = PostgresResults(table: table)
        // The fastest of three tries: on a loaded machine one try waited 0.52 s for the server.
        let bound = PostgresResults.quickCountSeconds + 0.4
        let took = try fastestOfThree(under: bound) {
            let started = Date()
            let quick = try results.valueCounts(of: "category", where: nil, prefix: "", limit: 3, quick: true, cancellation: .never)
            #expect(quick == nil || quick == expected)
            return Date().timeIntervalSince(started)
        }
        #expect(took < bound, "TAB waited \(took) s")
        let fastest = try fastestOfThree {
            try secondsToStop { cancellation in
                _ = try table.valueCounts(TableQuery(), of: "name", prefix: "", limit: 10, cancellation: cancellation)
            }
        }
        #expect(fastest < 0.2)
    }
}
