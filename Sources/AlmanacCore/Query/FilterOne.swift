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
        return results.with(kept(results.items, where: mask))
    }

    /// The items whose place in `mask` is true, in order: counted eight at a time, then
    /// copied without a branch per item (a filter keeps rows in no order a predictor learns).
    static func kept(_ items: [ResultSet.Item], where mask: [Bool]) -> [ResultSet.Item] {
        precondition(items.count == mask.count, "a mask per item")
        return mask.withUnsafeBytes { flags in
            var count = 0
            var index = 0
            // A Bool is the byte 0 or 1: the product's top byte adds up eight of them.
            while index + 8 <= flags.count {
                count += Int((flags.loadUnaligned(fromByteOffset: index, as: UInt64.self) &* 0x0101_0101_0101_0101) >> 56)
                index += 8
            }
            while index < flags.count {
                count += Int(flags[index])
                index += 1
            }
            return items.withUnsafeBufferPointer { items in
                // One spare place: the last item is written before it is known to stay.
                let kept = [ResultSet.Item](unsafeUninitializedCapacity: count + 1) { buffer, initialized in
                    var next = 0
                    for position in items.indices {
                        buffer[next] = items[position]
                        next += Int(flags[position])
                    }
                    initialized = next
                }
                return kept
            }
        }
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
