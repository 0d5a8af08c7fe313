import Synchronization

/// A sort's results whose full order is made only when something reads past their first
/// records: `sort population desc` lists its first page from a partial sort (`TopSort`) of
/// the first `prefixLength` records, and `page` near the top reads the same; a later step,
/// an export or a page further down orders them all once (`Sort.run`), and that is kept.
final class SortedResults: Sendable {
    /// How many records the partial sort orders: twenty pages of a tall terminal.
    static let prefixLength = 1_000

    let input: ResultSet
    let keys: [SortKey]
    /// The first records in sorted order (every record when the full order is made).
    private let prefix: [ResultSet.Item]
    private let full = Mutex<ResultSet?>(nil)

    /// Orders the first records now, so a sort's errors (an unknown field) come from here.
    init(_ input: ResultSet, by keys: [SortKey], cancellation: Cancellation) throws {
        self.input = input
        self.keys = keys
        if input.count <= 2 * Self.prefixLength {
            let sorted = try Sort.run(input, by: keys, cancellation: cancellation)
            prefix = sorted.items
            full.withLock { $0 = sorted }
        } else {
            prefix = try TopSort.first(Self.prefixLength, of: input, by: keys, cancellation: cancellation).map { input.items[$0] }
        }
    }

    var count: Int { input.count }

    /// Every record in order (ordered in full the first time).
    func all(cancellation: Cancellation) throws -> ResultSet {
        if let known = full.withLock({ $0 }) { return known }
        let sorted = try Sort.run(input, by: keys, cancellation: cancellation)
        full.withLock { $0 = sorted }
        return sorted
    }

    /// Records `start..<start+size` (fewer at the end): from the partial order when they lie in it.
    func page(start: Int, size: Int, cancellation: Cancellation) throws -> (results: ResultSet, range: Range<Int>) {
        let end = min(count, start + size)
        let start = min(start, end)
        if full.withLock({ $0 == nil }), end <= prefix.count {
            return (input.with(Array(prefix[start..<end])), 0..<(end - start))
        }
        return (try all(cancellation: cancellation), start..<end)
    }
}
