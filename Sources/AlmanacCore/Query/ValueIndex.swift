/// A field's distinct values in folded order, for completing `filter countryTitle = Гер<TAB>`
/// or `filter currencies.code = EU<TAB>` however many values the field has. Built on first use
/// and kept with the dataset; equal short strings share a node, so each is folded once.
public struct ValueIndex: Sendable {
    /// The values, and their foldings, sorted by folding.
    private let values: [String]
    private let folded: [String]
    /// The rows holding each value (a list's value once per record), value after value in
    /// folded order: value `i`'s rows are `rows[starts[i]..<starts[i + 1]]`, so the values of
    /// a beginning own one run of rows, and how many records have value `i` is the run's length
    /// (TAB's counts for the whole dataset, without a pass over its records). Empty when the
    /// rows would not fit in 32 bits: then `starts` still gives the counts.
    private let starts: [Int]
    private let rows: [UInt32]
    private let numeric: [Bool]

    public var count: Int { values.count }

    init(_ dataset: Dataset, path: String) {
        let compiled = dataset.compile(FieldPath(path))
        let document = dataset.document
        // By node word first (equal short strings share one): each distinct one read once.
        // Every (row, value) pair is kept as the value's ordinal (a node word's from 0, a
        // text's from -1 down) to lay the rows out by value once the values are sorted.
        var wordOrdinals: [UInt64: Int] = [:]
        var wordNodes: [Int] = []
        var textOrdinals: [String: Int] = [:]
        var texts: [(text: String, numeric: Bool)] = []
        var pairRows: [UInt32] = []
        var pairValues: [Int] = []
        let keepsRows = dataset.count <= Int(UInt32.max)
        var seen = RecordValues()
        // The values a filter compares: an object by its name (`filter milestone = v2.0`).
        let naming = ObjectIdentity.keys(in: document)
        for row in 0..<dataset.count {
            seen.reset()
            let rowWord = UInt32(truncatingIfNeeded: row)
            dataset.forEachComparedValue(of: compiled, row: row, naming: naming) { value in
                let ordinal: Int
                if case let .node(node) = value {
                    // null is no value.
                    guard document.kind(at: node) != .null, seen.isNew(node, in: document) else { return }
                    let word = document.node(node)
                    ordinal = wordOrdinals.number(of: word, next: wordNodes.count) { wordNodes.append(node) }
                } else {
                    let text = dataset.text(of: value)
                    guard seen.isNew(text) else { return }
                    ordinal = textOrdinals.number(of: text, next: -1 - texts.count) { texts.append((text, dataset.number(of: value) != nil)) }
                }
                pairValues.append(ordinal)
                if keepsRows { pairRows.append(rowWord) }
            }
        }
        wordOrdinals = [:]
        textOrdinals = [:]
        // No String-keyed table for the node values: hashing and comparing 378,000 Cyrillic
        // titles as Strings (normalized) took seconds. Sorted by UTF-8 bytes, then equal
        // texts of different nodes (long strings are not shared) merged side by side.
        var entries: [(folded: String, value: String, numeric: Bool, ordinal: Int)] = []
        entries.reserveCapacity(wordNodes.count + texts.count)
        for (ordinal, node) in wordNodes.enumerated() {
            let text = dataset.text(of: .node(node))
            guard !text.isEmpty else { continue }
            entries.append((Folding.fold(text), text, document.kind(at: node) == .number, ordinal))
        }
        for (index, found) in texts.enumerated() where !found.text.isEmpty {
            entries.append((Folding.fold(found.text), found.text, found.numeric, -1 - index))
        }
        // One key per entry: the folding, a NUL, the value (folded order, then code points),
        // compared with memcmp.
        let keys = entries.map { Array($0.folded.utf8) + [0] + Array($0.value.utf8) }
        let order = keys.indices.sorted { Self.precedes(keys[$0], keys[$1]) }
        // Each ordinal's place among the merged values (-1: the empty text, no value).
        var placeOfWord = [Int](repeating: -1, count: wordNodes.count)
        var placeOfText = [Int](repeating: -1, count: texts.count)
        var values: [String] = []
        var folded: [String] = []
        var numeric: [Bool] = []
        values.reserveCapacity(entries.count)
        folded.reserveCapacity(entries.count)
        numeric.reserveCapacity(entries.count)
        var lastKey: [UInt8]?
        for index in order {
            let entry = entries[index]
            if keys[index] != lastKey {
                values.append(entry.value)
                folded.append(entry.folded)
                numeric.append(entry.numeric)
                lastKey = keys[index]
            }
            if entry.ordinal >= 0 { placeOfWord[entry.ordinal] = values.count - 1 } else { placeOfText[-1 - entry.ordinal] = values.count - 1 }
        }
        // The rows laid out by value: counted, then each row put in its value's run.
        var starts = [Int](repeating: 0, count: values.count + 1)
        for ordinal in pairValues {
            let place = ordinal >= 0 ? placeOfWord[ordinal] : placeOfText[-1 - ordinal]
            if place >= 0 { starts[place + 1] += 1 }
        }
        for place in 0..<values.count { starts[place + 1] += starts[place] }
        var rows: [UInt32] = []
        if keepsRows {
            rows = [UInt32](repeating: 0, count: starts[values.count])
            var next = starts
            for (ordinal, row) in zip(pairValues, pairRows) {
                let place = ordinal >= 0 ? placeOfWord[ordinal] : placeOfText[-1 - ordinal]
                guard place >= 0 else { continue }
                rows[next[place]] = row
                next[place] += 1
            }
        }
        self.values = values
        self.folded = folded
        self.numeric = numeric
        self.starts = starts
        self.rows = rows
    }

    private static func precedes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        let shorter = min(first.count, second.count)
        let compared = shorter == 0 ? 0 : first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in memcmp(a.baseAddress!, b.baseAddress!, shorter) }
        }
        return compared != 0 ? compared < 0 : first.count < second.count
    }

    /// The index of `path` in `dataset`, built now whatever its size (the benchmark's warm state).
    public static func of(_ dataset: Dataset, path: String) -> ValueIndex {
        dataset.cached(CacheKey<ValueIndex>.values(of: path)) { ValueIndex(dataset, path: path) }
    }

    /// The index of `path` in `dataset`, built now (once) for a small dataset, or nil while a
    /// large one's is built in the background: completion never makes the prompt wait.
    public static func ifReady(_ dataset: Dataset, path: String) -> ValueIndex? {
        let key = CacheKey<ValueIndex>.values(of: path)
        if dataset.isCached(key) || dataset.count <= Dataset.smallEnoughToWaitFor {
            return dataset.cached(key) { ValueIndex(dataset, path: path) }
        }
        _ = dataset.cached(CacheKey<Bool>("values:\(path):started")) {
            BackgroundThread.start(name: "values \(path)") { _ = dataset.cached(key) { ValueIndex(dataset, path: path) } }
            return true
        }
        return nil
    }

    /// The values whose folding starts with `prefix` folded, in folded order, at most `limit`.
    public func values(withPrefix prefix: String, limit: Int = .max) -> [String] {
        positions(withPrefix: prefix).prefix(limit).map { values[$0] }
    }

    /// The value at `position` (of those `counts` gives), and whether it is a number.
    func value(at position: Int) -> String { values[position] }
    func isNumber(at position: Int) -> Bool { numeric[position] }

    /// Each value starting with `prefix` (folded), as its position, with how many records have
    /// it, in folded order.
    func counts(withPrefix prefix: String) -> [(position: Int, records: Int)] {
        positions(withPrefix: prefix).map { ($0, starts[$0 + 1] - starts[$0]) }
    }

    /// How many (record, value) pairs the values starting with `prefix` have: the work of
    /// counting them among some rows. Nil when the index keeps no rows.
    func pairs(withPrefix prefix: String) -> Int? {
        guard rows.count == starts[values.count] else { return nil }
        let range = positions(withPrefix: prefix)
        return starts[range.upperBound] - starts[range.lowerBound]
    }

    /// Each value starting with `prefix` (folded) that some of `among` (rows of the dataset)
    /// have, as its position, with how many of them, in folded order: one run of rows tested
    /// against the set, however many records the value index or the set has.
    func counts(withPrefix prefix: String, among members: RowSet) -> [(position: Int, records: Int)] {
        var found: [(position: Int, records: Int)] = []
        rows.withUnsafeBufferPointer { rows in
            for position in positions(withPrefix: prefix) {
                var records = 0
                for index in starts[position]..<starts[position + 1] where members.contains(Int(rows[index])) { records += 1 }
                if records > 0 { found.append((position, records)) }
            }
        }
        return found
    }

    /// The values whose folding starts with `prefix` folded: one run, found by two binary searches.
    private func positions(withPrefix prefix: String) -> Range<Int> {
        let wanted = Folding.fold(prefix)
        if wanted.isEmpty { return 0..<folded.count }
        var low = 0
        var high = folded.count
        while low < high {
            let middle = (low + high) / 2
            if folded[middle].utf8.lexicographicallyPrecedes(wanted.utf8) { low = middle + 1 } else { high = middle }
        }
        // From `low` on, those starting with it come first.
        var end = low
        high = folded.count
        while end < high {
            let middle = (end + high) / 2
            if folded[middle].utf8.starts(with: wanted.utf8) { end = middle + 1 } else { high = middle }
        }
        return low..<end
    }
}

extension CacheKey where Value == ValueIndex {
    /// A field's value index (`ValueIndex.ifReady`).
    static func values(of path: String) -> CacheKey { CacheKey("values:" + path) }
}

/// The values one record has given already, so a record counts once for each: nodes by their
/// word (equal short strings share one), numbers by their text (a number's node is its own
/// text, so the two 0s of `[0, 0]` or `{"up": 0, "heart": 0}` are two nodes), and other
/// values by their text.
struct RecordValues {
    private var words: [UInt64] = []
    private var numbers: [Int] = []
    private var texts: [String] = []

    mutating func reset() {
        words.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
    }

    /// Whether the record gives `node` for the first time; it is noted.
    mutating func isNew(_ node: Int, in document: JSONDocument) -> Bool {
        if document.kind(at: node) == .number {
            let text = document.arena[document.textRange(at: node)]
            if numbers.contains(where: { document.arena[document.textRange(at: $0)] == text }) { return false }
            numbers.append(node)
        }
        let word = document.node(node)
        guard !words.contains(word) else { return false }
        words.append(word)
        return true
    }

    /// Whether the record gives `text` for the first time; it is noted.
    mutating func isNew(_ text: String) -> Bool {
        guard !texts.contains(text) else { return false }
        texts.append(text)
        return true
    }
}

#if canImport(Glibc)
import Glibc
#endif
