/// A column's values counted for `describe`, by sorting rather than hashing: equal short
/// strings share a node word (longer ones are keyed by a hash of their bytes), so each row's
/// key and position packed in one integer and radix-sorted put every value's rows together,
/// its first row first. The values are then
/// numbered in the order they first appear — as `ValueNumbering` numbers them one row at a
/// time — so the profile is the same; a quarter of a million distinct city names cost a few
/// streaming passes instead of a hash-table miss per row (`describe cityTitle` at 100×: 41 →
/// see BENCHMARKS.md).
struct ColumnTally {
    /// Per value number (0: none), how many of the rows hold it.
    var counts: [Int] = [0]
    /// The rows' numbers, in row order.
    var numbers: [Double] = []
    /// Rows with a value (a number, or a value that is not a word for none).
    var present = 0
    /// Numbers past 2⁵³ by their literals, as `describe` keeps them (`ExactNumber`).
    var exact: Set<ExactNumber> = []

    /// Counts `rows` of `column` into `values` (empty when given); nil when the arena is too
    /// large for a word and a row's place to share 64 bits, or two long strings' hashes
    /// collide (the caller then numbers row by row).
    static func count(_ column: FieldCatalog.Column, rows: [Int], in dataset: Dataset, path: Dataset.CompiledPath,
                      into values: inout ValueNumbering, cancellation: Cancellation) throws(CancelledError) -> ColumnTally? {
        let document = dataset.document
        let positionBits = UInt64(max(1, UInt64.bitWidth - UInt64(max(1, rows.count - 1)).leadingZeroBitCount))
        // A short string's key is its arena offset and length (at most internLimit: seven
        // bits); a long one (not interned: equal texts have other words) is a hash of its
        // bytes with the top key bit set, its run's texts compared after the sort.
        let lengthBits: UInt64 = 7
        let keyBits = UInt64(UInt64.bitWidth - UInt64(max(1, document.arena.count)).leadingZeroBitCount) + lengthBits + 1
        guard positionBits + keyBits <= 64 else { return nil }
        let longFlag = UInt64(1) << (keyBits - 1)
        let string = JSONDocument.Kind.string.rawValue
        let number = JSONDocument.Kind.number.rawValue
        var tally = ColumnTally()
        tally.numbers.reserveCapacity(rows.count)
        var packed: [UInt64] = []
        packed.reserveCapacity(rows.count)
        // true and false: numbered by their text, row by row (few).
        var others: [(position: Int, kind: UInt8, word: UInt64)] = []
        try column.kinds.withUnsafeBufferPointer { kinds throws(CancelledError) in
            try column.words.withUnsafeBufferPointer { words throws(CancelledError) in
                try document.arena.withUnsafeBufferPointer { arena throws(CancelledError) in
                    for (position, row) in rows.enumerated() {
                        if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                        let kind = kinds[row]
                        let word = words[row]
                        if kind == number {
                            tally.present += 1
                            let value = Double(bitPattern: word)
                            tally.numbers.append(value)
                            if ExactNumber.isAmbiguous(value), case let .node(node) = dataset.scalar(of: path, row: row),
                               let exact = ExactNumber(document.string(at: node)) {
                                tally.exact.insert(exact)
                            }
                        } else if kind == string {
                            let range = JSONDocument.textRange(ofWord: word)
                            let key = range.count <= JSONDocumentBuilder.internLimit
                                ? UInt64(range.lowerBound) << lengthBits | UInt64(range.count)
                                : longFlag | ByteTable.hash(UnsafeBufferPointer(rebasing: arena[range])) & (longFlag - 1)
                            packed.append(key << positionBits | UInt64(position))
                        } else if kind != FieldCatalog.Column.missing, kind != JSONDocument.Kind.null.rawValue {
                            others.append((position, kind, word))
                        }
                    }
                }
            }
        }
        try cancellation.checkpoint()
        packed.radixSort()
        // One run per distinct string: its first position (the lowest: positions sort within a
        // key), its key, its rows; a long string's run must hold one text.
        let positionMask = UInt64(1) << positionBits - 1
        var runs: [(first: Int, key: UInt64, count: Int)] = []
        var index = 0
        while index < packed.count {
            let key = packed[index] >> positionBits
            var end = index + 1
            while end < packed.count, packed[end] >> positionBits == key { end += 1 }
            runs.append((Int(packed[index] & positionMask), key, end - index))
            if key & longFlag != 0, end - index > 1 {
                let first = column.words[rows[Int(packed[index] & positionMask)]]
                for member in (index + 1)..<end where !sameText(first, column.words[rows[Int(packed[member] & positionMask)]], in: document) {
                    return nil
                }
            }
            index = end
        }
        packed = []
        // true and false, first positions kept.
        var otherNumbers = ValueNumbering()
        var otherRuns: [(first: Int, kind: UInt8, word: UInt64, count: Int)] = []
        var runOfOther: [Int32: Int] = [:]
        for other in others {
            let local = otherNumbers.number(kind: other.kind, word: other.word, in: dataset, datasetIndex: 0, path: path,
                                            row: rows[other.position], field: 0)
            if let run = runOfOther[local] {
                otherRuns[run].count += 1
            } else {
                runOfOther[local] = otherRuns.count
                otherRuns.append((other.position, other.kind, other.word, 1))
            }
        }
        // Numbered in order of first appearance, as one pass over the rows numbers them: each
        // run marked at its first position, then the positions read in order.
        var runAt = [Int32](repeating: -1, count: rows.count)
        for (index, run) in runs.enumerated() { runAt[run.first] = Int32(index) }
        var order: [Int32] = []
        order.reserveCapacity(runs.count)
        for run in runAt where run >= 0 { order.append(run) }
        runAt = []
        var next = (short: 0, other: 0)
        while next.short < order.count || next.other < otherRuns.count {
            let takeString = next.other == otherRuns.count
                || (next.short < order.count && runs[Int(order[next.short])].first < otherRuns[next.other].first)
            let count: Int
            let numbered: Int32
            if takeString {
                let run = runs[Int(order[next.short])]
                next.short += 1
                let range = run.key & longFlag != 0
                    ? JSONDocument.textRange(ofWord: column.words[rows[run.first]])
                    : Int(run.key >> lengthBits)..<(Int(run.key >> lengthBits) + Int(run.key & (1 << lengthBits - 1)))
                numbered = values.appendNew(stringRange: range, in: document)
                count = run.count
            } else {
                let run = otherRuns[next.other]
                next.other += 1
                numbered = values.number(kind: run.kind, word: run.word, in: dataset, datasetIndex: 0, path: path,
                                         row: rows[run.first], field: 0)
                count = run.count
            }
            guard numbered != values.empty else { continue }
            tally.present += count
            while tally.counts.count <= Int(numbered) { tally.counts.append(0) }
            tally.counts[Int(numbered)] += count
        }
        return tally
    }

    /// Whether two string words hold the same bytes.
    private static func sameText(_ first: UInt64, _ second: UInt64, in document: JSONDocument) -> Bool {
        let (a, b) = (JSONDocument.textRange(ofWord: first), JSONDocument.textRange(ofWord: second))
        guard a.count == b.count else { return false }
        return document.arena.withUnsafeBufferPointer { memcmp($0.baseAddress! + a.lowerBound, $0.baseAddress! + b.lowerBound, a.count) == 0 }
    }
}

#if canImport(Glibc)
import Glibc
#endif
