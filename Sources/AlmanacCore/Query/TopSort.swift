/// The first records of a sort without ordering the rest: what a listing of the first page
/// needs (`sort population desc` shows 25 of 400,000 records). A heap keeps the best `count`
/// positions seen; each other record costs one comparison with the heap's worst. The order is
/// exactly `Sort.run`'s (keys, absent values last in both directions, then position), so its
/// first `count` items are these, in this order.
enum TopSort {
    /// Positions in `results.items` of the first `count` records of `Sort.run(results, by: keys)`, in order.
    static func first(_ count: Int, of results: ResultSet, by keys: [SortKey], cancellation: Cancellation) throws -> [Int] {
        let count = min(count, results.count)
        guard count > 0, !keys.isEmpty else { return Array(0..<count) }
        if keys.count == 1, let positions = try numberColumn(count, of: results, by: keys[0], cancellation: cancellation) {
            return positions
        }
        var built: [SortKeys] = []
        for key in keys { built.append(try SortKeys(results, field: key.field, cancellation: cancellation)) }
        let descending = keys.map(\.descending)
        return try Sort.withPointers(built) { pointers in
            // Sort.run's comparator.
            func precedes(_ a: Int, _ b: Int) -> Bool { Sort.precedes(a, b, by: pointers, descending: descending) }
            var heap = WorstFirstHeap(capacity: count)
            for position in 0..<results.count {
                if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                heap.offer(position, precedes: precedes)
            }
            return heap.ordered(precedes: precedes)
        }
    }

    /// One key over a column of numbers (nulls and missing values aside) in one dataset: its
    /// values compared where they lie, with no keys built. nil when the field is not such a
    /// column (text, a list, a computed field): then `SortKeys` decides, as `Sort` does.
    private static func numberColumn(_ count: Int, of results: ResultSet, by key: SortKey,
                                     cancellation: Cancellation) throws -> [Int]? {
        // A column a step computed (near's distance) comes before the fields, as in SortKeys.
        guard results.datasets.count == 1, results.computedColumn(key.field) == nil else { return nil }
        let dataset = results.datasets[0]
        let catalog = try dataset.fields(cancellation: cancellation)
        guard catalog.field(key.field)?.isNumeric == true, !dataset.compile(FieldPath(key.field)).hasTwinSpellings,
              let column = catalog.column(key.field) else { return nil }
        let number = JSONDocument.Kind.number.rawValue
        let null = JSONDocument.Kind.null.rawValue
        var best: [(value: Double, position: Int)] = []
        best.reserveCapacity(count)
        var absent: [Int] = []
        // `best` is a heap whose root is the worst of the kept: the smallest value when
        // descending, the largest ascending; among equal values the later position. A record
        // scanned later never beats an equal one, so one comparison with the root decides.
        func worse(_ a: (value: Double, position: Int), _ b: (value: Double, position: Int)) -> Bool {
            if a.value != b.value { return key.descending ? a.value < b.value : a.value > b.value }
            return a.position > b.position
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < best.count else { return }
                var worst = left
                if left + 1 < best.count, worse(best[left + 1], best[left]) { worst = left + 1 }
                guard worse(best[worst], best[parent]) else { return }
                best.swapAt(worst, parent)
                parent = worst
            }
        }
        func siftUp(_ start: Int) {
            var child = start
            while child > 0 {
                let parent = (child - 1) / 2
                guard worse(best[child], best[parent]) else { return }
                best.swapAt(child, parent)
                child = parent
            }
        }
        let found: Bool = try column.kinds.withUnsafeBufferPointer { kinds in
            try column.words.withUnsafeBufferPointer { words in
                try results.items.withUnsafeBufferPointer { items in
                    for position in 0..<items.count {
                        if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                        let row = items[position].row
                        let kind = kinds[row]
                        guard kind == number else {
                            // Text or true/false among the numbers: Sort's own keys decide.
                            guard kind == null || kind == FieldCatalog.Column.missing else { return false }
                            if absent.count < count { absent.append(position) }
                            continue
                        }
                        let value = Double(bitPattern: words[row])
                        // Past 2^53 equal Doubles may be different integers: SortKeys reads them exactly.
                        if ExactNumber.isAmbiguous(value) { return false }
                        if value.isNaN {
                            if absent.count < count { absent.append(position) }
                            continue
                        }
                        if best.count < count {
                            best.append((value, position))
                            siftUp(best.count - 1)
                        } else if key.descending ? value > best[0].value : value < best[0].value {
                            best[0] = (value, position)
                            siftDown(0)
                        }
                    }
                    return true
                }
            }
        }
        guard found else { return nil }
        best.sort { worse($1, $0) }
        return (best.map(\.position) + absent).prefix(count).map { $0 }
    }
}

/// The `capacity` best positions offered, kept as a heap whose root is the one that would come last.
private struct WorstFirstHeap {
    let capacity: Int
    private var positions: [Int] = []

    init(capacity: Int) {
        self.capacity = capacity
        positions.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func offer(_ position: Int, precedes: (Int, Int) -> Bool) {
        if positions.count < capacity {
            positions.append(position)
            var child = positions.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard precedes(positions[parent], positions[child]) else { return }
                positions.swapAt(child, parent)
                child = parent
            }
        } else if precedes(position, positions[0]) {
            positions[0] = position
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < positions.count else { return }
                var last = left
                if left + 1 < positions.count, precedes(positions[left], positions[left + 1]) { last = left + 1 }
                guard precedes(positions[parent], positions[last]) else { return }
                positions.swapAt(last, parent)
                parent = last
            }
        }
    }

    func ordered(precedes: (Int, Int) -> Bool) -> [Int] { positions.sorted(by: precedes) }
}
