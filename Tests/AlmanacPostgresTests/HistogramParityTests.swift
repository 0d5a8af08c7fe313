@testable import AlmanacCore
import Foundation
import PostgresCluster
import Testing
@testable import AlmanacPostgres

/// `histogram` on a table: the database's statistics and counts against memory's over the same
/// rows fetched, for a column of every kind.
@Suite struct HistogramParityTests {
    /// percentile_cont interpolates between the closest ranks as memory's quantile does, so
    /// the interquartile range (hence Freedman–Diaconis' bin count) is the same Double.
    @Test func quartilesArePercentileContExactly() throws {
        let cluster = try TestCluster.shared()
        var values: [Double] = [0.1, 1e-3, 7, 3.3, 10, 2, 1e10, -5, 0.3, 1.0 / 3, 2.0 / 3, 123_456.789, -0.7]
        try cluster.once("histogram_quartiles") {
            try cluster.execute("CREATE TABLE histogram_quartiles (x float8); INSERT INTO histogram_quartiles VALUES "
                + values.map { "(\($0))" }.joined(separator: ", "))
        }
        let table = try PostgresTable.attach(name: "q", url: PostgresURL(cluster.url(table: "histogram_quartiles")))
        let result = try table.connection.query(table.builder.histogramStatistics(TableQuery(), field: "x"))
        let first = try #require(result.value(0, 7).flatMap(Double.init))
        let third = try #require(result.value(0, 8).flatMap(Double.init))
        #expect(first == Histogram.quantile(&values, 0.25))
        #expect(third == Histogram.quantile(&values, 0.75))
    }

    static let fields = ["population", "score", "ratio", "born", "sizes", "info.rank", "tags", "name", "active", "info.codes"]

    @Test("the answer is memory's over the same rows", arguments: fields)
    func sameAnswerAsMemory(_ field: String) throws {
        let cluster = try TestCluster.shared()
        try cluster.kindsTable()
        let table = try PostgresTable.attach(name: "kinds", url: PostgresURL(cluster.url(table: "kinds")))
        let rows = try table.page(limit: 100).rows
        for logarithmic in [false, true] {
            for bins in [nil, 1, 3] as [Int?] {
                let measured = try FieldMeasurements.read(field, from: .all([rows]))
                let memory = measured.answer(bins: bins, logarithmic: logarithmic, noun: (rows.model.singular, rows.model.plural))
                let database = try table.histogram(TableQuery(), field: field, bins: bins, logarithmic: logarithmic)
                let context = "\(field) log \(logarithmic) bins \(bins.map(String.init) ?? "-")"
                #expect(database.histogram == memory.histogram, "\(context)")
                #expect(database.kind == memory.kind, "\(context)")
                let counts: [Int] = [database.records, database.recordsWithValue, database.values, database.positiveValues]
                let expected: [Int] = [memory.records, memory.recordsWithValue, memory.values, memory.positiveValues]
                #expect(counts == expected, "\(context)")
                #expect(database.otherValues.map { "\($0.text) \($0.count)" } == memory.otherValues.prefix(5).map { "\($0.text) \($0.count)" }, "\(context)")
                #expect([database.noun.singular, database.noun.plural] == [memory.noun.singular, memory.noun.plural], "\(context)")
            }
        }
    }
}
