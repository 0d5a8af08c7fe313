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
}
