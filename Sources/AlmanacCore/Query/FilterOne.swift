extension Filter {
    /// `run` over one dataset's results (the usual case): the rows read straight from the
    /// items and the kept items gathered once their number is known, without the per-dataset
    /// bookkeeping that results spanning datasets need (half of a 100× filter's time).
    static func runOne(_ expression: FilterExpression, on results: ResultSet, catalogs: [FieldCatalog],
                       cancellation: Cancellation) throws -> ResultSet {
        var filter = CompiledFilter(dataset: results.datasets[0], fields: catalogs[0], rows: results.datasets[0].rows(of: results.items),
                                    cancellation: cancellation)
        filter.computed = results.computed.isEmpty ? nil : (results.computed, 0)
        filter.others = catalogs
        let mask = try filter.evaluate(expression)
        var kept: [ResultSet.Item] = []
        kept.reserveCapacity(mask.reduce(0) { $0 + ($1 ? 1 : 0) })
        results.items.withUnsafeBufferPointer { items in
            for position in items.indices where mask[position] { kept.append(items[position]) }
        }
        return results.with(kept)
    }
}

extension Dataset {
    /// Every row as items of a result set of this dataset alone, made once: each listing,
    /// filter, group and describe of all the records started by making 400,000 of them at 100×.
    var allItems: [ResultSet.Item] {
        cached(CacheKey<[ResultSet.Item]>("all-items")) { (0..<count).map { ResultSet.Item(dataset: 0, row: $0) } }
    }

    /// The rows of `items` (all of this dataset's): every row is one array made once, not
    /// 400,000 rows copied out of the items by each filter of all the records.
    func rows(of items: [ResultSet.Item]) -> [Int] {
        let all = allItems
        let isAll = items.count == all.count && items.withUnsafeBufferPointer { mine in
            all.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
        }
        guard isAll else { return items.map(\.row) }
        return cached(CacheKey<[Int]>("all-rows")) { Array(0..<count) }
    }
}
