import Foundation
import Synchronization
import Testing
import AlmanacCore
import AlmanacPostgres
import PostgresCluster

/// A filter as typed: words split at spaces, `"…"` and `'…'` quoting.
func parseFilter(_ text: String) throws -> FilterExpression {
    try FilterExpression.parse(FilterExpression.tokens(ExpressionTokens.words(of: text)))
}

/// Each record's name field (nil when it has none), in order: how two answers are compared.
func names(_ dataset: Dataset, rows: [Int]? = nil) -> [String?] {
    let key = dataset.document.key(dataset.layout.nameField)
    return (rows ?? Array(0..<dataset.count)).map { row in
        dataset.document.member(key, of: dataset.records[row]).map { dataset.text(of: .node($0)) }
    }
}

func names(_ results: ResultSet) -> [String?] {
    names(results.datasets[0], rows: results.items.map(\.row))
}

/// Every row of a query, as names in order.
func allNames(_ table: PostgresTable, _ query: TableQuery) throws -> [String?] {
    names(try table.page(query, limit: 1_000_000).rows)
}

/// The fastest of up to three tries of something that must take under `limit` seconds: a
/// loaded machine may deschedule one try past the limit, while a cancellation that does not
/// work fails all three (each would wait for its statement's seconds).
func fastestOfThree(under limit: TimeInterval = 0.2, _ attempt: () throws -> TimeInterval) rethrows -> TimeInterval {
    var fastest = TimeInterval.infinity
    for _ in 0..<3 where fastest >= limit { fastest = min(fastest, try attempt()) }
    return fastest
}

/// Runs `work` with a cancellation that turns true 0.3 s in and expects it to stop with
/// CancelledError; the seconds from that moment until it stopped.
func secondsToStop(_ work: (Cancellation) throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws -> TimeInterval {
    let flippedAt = Mutex<Date?>(nil)
    let start = Date()
    let cancellation = Cancellation {
        guard Date().timeIntervalSince(start) > 0.3 else { return false }
        flippedAt.withLock { if $0 == nil { $0 = Date() } }
        return true
    }
    #expect(throws: CancelledError.self, sourceLocation: sourceLocation) { try work(cancellation) }
    let flipped = try #require(flippedAt.withLock { $0 }, sourceLocation: sourceLocation)
    return Date().timeIntervalSince(flipped)
}
