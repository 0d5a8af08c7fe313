/// `group`'s common case (one dataset, one or two fields with columns) on both cores: each
/// half of the rows is numbered, and each half of the records counted, into its own table;
/// the second half's table is then merged into the first's in the order its entries were
/// first met, so every value number, group index, count and first row is the one a single
/// pass gives. Fewer rows than `Group.twoThreadsFrom` go on one thread, which is quicker than
/// waking a second.
extension Group {
    /// At 100× (403,700 rows) two threads halve the numbering and counting; at 10× (40,370) they
    /// still win a little; below, waking the second thread costs about what it saves.
    public static let twoThreadsFrom = 1 << 15
}

extension ValueNumbering {
    /// The number of every row's value in a column (the `field`th grouping field, at `path`).
    /// From `twoThreadsFrom` rows, the second half of the rows is told apart on another thread
    /// (by kind and node word: equal ones are one value) and numbered after the first half.
    mutating func numbers(of column: FieldCatalog.Column, in dataset: Dataset, path: Dataset.CompiledPath, field: Int,
                          twoThreadsFrom: Int) -> [Int32] {
        let count = column.kinds.count
        let half = count >= max(2, twoThreadsFrom) ? count / 2 : count
        var numbers = [Int32](repeating: empty, count: count)
        // Allocated here, not on the other thread (a worker's freed memory stays in its heap).
        var seen = SeenValues(expected: half < count ? (count - half) / 4 : 0)
        column.kinds.withUnsafeBufferPointer { kinds in
            column.words.withUnsafeBufferPointer { words in
                numbers.withUnsafeMutableBufferPointer { numbers in
                    onThreads(half < count ? 2 : 1) { part in
                        if part == 1 { return seen.scan(kinds: kinds, words: words, rows: half..<count, into: numbers) }
                        number(rows: 0..<half, kinds: kinds, words: words, into: numbers, in: dataset, path: path, field: field)
                    }
                }
            }
        }
        guard half < count else { return numbers }
        // The second half's values in the order first met, as one pass would meet them after the first half.
        let named = seen.firsts.map { first in
            number(kind: first.kind, word: first.word, in: dataset, datasetIndex: 0, path: path, row: first.row, field: field)
        }
        named.withUnsafeBufferPointer { named in
            numbers.withUnsafeMutableBufferPointer { numbers in
                for row in half..<count { numbers[row] = named[Int(numbers[row])] }
            }
        }
        return numbers
    }

    /// Numbers `rows` of a column into `numbers`. A row with the last row's kind and word has
    /// its number (records come in runs: a country's cities), but for a number past 2⁵³,
    /// named by each row's literal.
    private mutating func number(rows: Range<Int>, kinds: UnsafeBufferPointer<UInt8>, words: UnsafeBufferPointer<UInt64>,
                                 into numbers: UnsafeMutableBufferPointer<Int32>, in dataset: Dataset, path: Dataset.CompiledPath, field: Int) {
        var last: (kind: UInt8, word: UInt64, number: Int32)?
        for row in rows {
            let (kind, word) = (kinds[row], words[row])
            if let last, last.kind == kind, last.word == word {
                numbers[row] = last.number
                continue
            }
            let number = number(kind: kind, word: word, in: dataset, datasetIndex: 0, path: path, row: row, field: field)
            numbers[row] = number
            let exact = kind == JSONDocument.Kind.number.rawValue && ExactNumber.isAmbiguous(Double(bitPattern: word))
            last = exact ? nil : (kind, word, number)
        }
    }
}

/// The distinct values of some rows of a column, numbered from 0 in the order first met, with
/// each one's first row. Rows with the same kind and word are one value to `ValueNumbering`
/// (a string by its word, a number by its bits, `true`, `false` and none by their kind) except
/// numbers past 2⁵³, named by each row's literal: each of those is a value of its own here.
private struct SeenValues {
    private(set) var firsts: [(kind: UInt8, word: UInt64, row: Int)] = []
    private var strings: WordTable
    private var numbers: WordTable

    init(expected: Int) {
        strings = WordTable(expected: expected)
        numbers = WordTable(expected: 512)
        firsts.reserveCapacity(expected)
    }

    /// Writes each row's value (its place in `firsts`) into `values[row]`.
    mutating func scan(kinds: UnsafeBufferPointer<UInt8>, words: UnsafeBufferPointer<UInt64>, rows: Range<Int>,
                       into values: UnsafeMutableBufferPointer<Int32>) {
        // Out of self while the tables grow through `first`: one exclusive access each.
        var firsts: [(kind: UInt8, word: UInt64, row: Int)] = []
        swap(&firsts, &self.firsts)
        defer { swap(&firsts, &self.firsts) }
        var byKind = [Int32](repeating: -1, count: 256)
        let string = JSONDocument.Kind.string.rawValue
        let numberKind = JSONDocument.Kind.number.rawValue
        var last: (kind: UInt8, word: UInt64, value: Int32)?
        for row in rows {
            let kind = kinds[row]
            let word = words[row]
            if let last, last.kind == kind, last.word == word {
                values[row] = last.value
                continue
            }
            func first() -> Int32 {
                firsts.append((kind, word, row))
                return Int32(firsts.count - 1)
            }
            if kind == string {
                values[row] = strings.value(of: word, or: first)
            } else if kind == numberKind {
                guard !ExactNumber.isAmbiguous(Double(bitPattern: word)) else {
                    values[row] = first()
                    last = nil
                    continue
                }
                values[row] = numbers.value(of: word, or: first)
            } else {
                if byKind[Int(kind)] < 0 { byKind[Int(kind)] = first() }
                values[row] = byKind[Int(kind)]
            }
            last = (kind, word, values[row])
        }
    }
}

extension GroupCounter {
    /// Counts the groups of `items` (their rows' value numbers in `first`, and `second` when
    /// grouping by two fields), writing each item's group into `groups` (when not empty); the
    /// second half of the items on another thread, into a counter merged after.
    static func count(_ items: UnsafeBufferPointer<ResultSet.Item>, first: UnsafeBufferPointer<Int32>, second: UnsafeBufferPointer<Int32>,
                      groups: UnsafeMutableBufferPointer<Int32>, expected: Int, twoThreadsFrom: Int,
                      cancellation: Cancellation) throws(CancelledError) -> GroupCounter {
        let width = second.isEmpty ? 1 : 2
        func count(_ positions: Range<Int>, into counter: inout GroupCounter) throws(CancelledError) {
            // The last record's key and group: records come in runs (a country's cities).
            var last: (key: UInt64, group: Int)?
            for position in positions {
                if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                let row = items[position].row
                let key = second.isEmpty ? UInt64(UInt32(bitPattern: first[row]))
                    : UInt64(UInt32(bitPattern: first[row])) << 32 | UInt64(UInt32(bitPattern: second[row]))
                let group: Int
                if let last, last.key == key {
                    group = last.group
                    counter.addOne(to: group)
                } else {
                    group = counter.add(packed: key, width: width, row: row)
                    last = (key, group)
                }
                if !groups.isEmpty { groups[position] = Int32(group) }
            }
        }
        var counter = GroupCounter(expected: expected)
        guard items.count >= max(2, twoThreadsFrom) else {
            try count(items.indices, into: &counter)
            return counter
        }
        let half = items.count / 2
        var rest = GroupCounter(expected: expected / 2)
        var stopped = [false, false]
        stopped.withUnsafeMutableBufferPointer { stopped in
            onThreads(2) { part in
                do throws(CancelledError) {
                    if part == 0 { try count(0..<half, into: &counter) } else { try count(half..<items.count, into: &rest) }
                } catch {
                    stopped[part] = true
                }
            }
        }
        if stopped.contains(true) { throw CancelledError() }
        let merged = counter.merge(rest)
        if !groups.isEmpty {
            for position in half..<items.count { groups[position] = merged[Int(groups[position])] }
        }
        return counter
    }
}
