/// `sort FIELD [asc|desc][, FIELD [asc|desc]…]`: stable, key after key.
public enum Sort {
    /// Sorts by each key's field, the first value of it: numbers numerically (text that reads as
    /// a number too), text by its folded form (no case, no diacritics), then by code point;
    /// numbers before words in both directions. A field whose values are mostly numbers
    /// (SWAPI writes them as text) sorts as numbers, its other words (`indefinite`) as absent.
    /// Absent values — missing, null, `""`, `n/a`, `unknown`, `none` (see `ValueText`) — come
    /// last in both directions, as SQL's NULLS LAST. Equal records keep their order.
    ///
    /// Keys are folded once into one byte buffer, with their first sixteen bytes kept as two
    /// integers, so most comparisons are one integer comparison.
    public static func run(_ results: ResultSet, by sortKeys: [SortKey], cancellation: Cancellation = .never) throws -> ResultSet {
        var keys: [SortKeys] = []
        for sortKey in sortKeys {
            keys.append(try SortKeys(results, field: sortKey.field, cancellation: cancellation))
        }
        var order = Array(0..<results.count)
        var comparisons = 0
        let descending = sortKeys.map(\.descending)
        try withPointers(keys) { pointers in
            if pointers.count == 1 {
                let keys = pointers[0]
                let descending = descending[0]
                try order.sort { a, b in
                    comparisons += 1
                    if comparisons & 0xFFFF == 0 { try cancellation.checkpoint() }
                    let ordered = keys.compare(a, b)
                    if ordered == 0 { return a < b }
                    // Numbers, then words, then absent values, in both directions.
                    if keys.kinds[a] != keys.kinds[b] { return ordered < 0 }
                    return descending ? ordered > 0 : ordered < 0
                }
                return
            }
            try order.sort { a, b in
                comparisons += 1
                if comparisons & 0xFFFF == 0 { try cancellation.checkpoint() }
                return precedes(a, b, by: pointers, descending: descending)
            }
        }
        return results.with(order.map { results.items[$0] })
    }

    /// The order of two positions by several keys: key after key, numbers before words before
    /// absent values in either direction, then position (TopSort orders its first pages by it too).
    @inline(__always)
    static func precedes(_ a: Int, _ b: Int, by pointers: [SortKeys.Pointers], descending: [Bool]) -> Bool {
        for (index, keys) in pointers.enumerated() {
            let ordered = keys.compare(a, b)
            if ordered == 0 { continue }
            if keys.kinds[a] != keys.kinds[b] { return ordered < 0 }
            return descending[index] ? ordered > 0 : ordered < 0
        }
        return a < b
    }

    static func withPointers<Result>(_ keys: [SortKeys], _ body: ([SortKeys.Pointers]) throws -> Result) rethrows -> Result {
        func nest(_ index: Int, _ pointers: [SortKeys.Pointers]) throws -> Result {
            guard index < keys.count else { return try body(pointers) }
            return try keys[index].withPointers { try nest(index + 1, pointers + [$0]) }
        }
        return try nest(0, [])
    }
}
