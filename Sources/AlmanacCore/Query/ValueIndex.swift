/// A field's distinct values in folded order, for completing `filter countryTitle = Гер<TAB>`
/// or `filter currencies.code = EU<TAB>` however many values the field has. Built on first use
/// and kept with the dataset; equal short strings share a node, so each is folded once.
public struct ValueIndex: Sendable {
    /// The values, and their foldings, sorted by folding.
    private let values: [String]
    private let folded: [String]
    /// How many records have each value (a list's value once per record), and whether it is a
    /// number: TAB's counts for the whole dataset, without a pass over its records.
    private let records: [Int]
    private let numeric: [Bool]

    public var count: Int { values.count }

    init(_ dataset: Dataset, path: String) {
        let compiled = dataset.compile(FieldPath(path))
        let document = dataset.document
        // By node word first (equal short strings share one): each distinct one read once.
        var byWord: [UInt64: (records: Int, node: Int)] = [:]
        var byText: [String: (records: Int, numeric: Bool)] = [:]
        var seenWords: [UInt64] = []
        var seenTexts: [String] = []
        for row in 0..<dataset.count {
            seenWords.removeAll(keepingCapacity: true)
            seenTexts.removeAll(keepingCapacity: true)
            dataset.forEachValue(of: compiled, row: row) { value in
                if case let .node(node) = value {
                    // null is no value.
                    guard document.kind(at: node) != .null else { return }
                    let word = document.node(node)
                    guard !seenWords.contains(word) else { return }
                    seenWords.append(word)
                    byWord[word, default: (0, node)].records += 1
                    return
                }
                let text = dataset.text(of: value)
                guard !seenTexts.contains(text) else { return }
                seenTexts.append(text)
                byText[text, default: (0, dataset.number(of: value) != nil)].records += 1
            }
        }
        // No String-keyed table for the node values: hashing and comparing 378,000 Cyrillic
        // titles as Strings (normalized) took seconds. Sorted by UTF-8 bytes, then equal
        // texts of different nodes (long strings are not shared) merged side by side.
        var entries: [(folded: String, value: String, found: (records: Int, numeric: Bool))] = []
        entries.reserveCapacity(byWord.count + byText.count)
        for (_, found) in byWord {
            let text = dataset.text(of: .node(found.node))
            guard !text.isEmpty else { continue }
            entries.append((Folding.fold(text), text, (found.records, document.kind(at: found.node) == .number)))
        }
        for (text, found) in byText where !text.isEmpty { entries.append((Folding.fold(text), text, found)) }
        // One key per entry: the folding, a NUL, the value (folded order, then code points),
        // compared with memcmp.
        let keys = entries.map { Array($0.folded.utf8) + [0] + Array($0.value.utf8) }
        let order = keys.indices.sorted { Self.precedes(keys[$0], keys[$1]) }
        var merged: [(folded: String, value: String, found: (records: Int, numeric: Bool))] = []
        merged.reserveCapacity(entries.count)
        var lastKey: [UInt8]?
        for index in order {
            if keys[index] == lastKey {
                merged[merged.count - 1].found.records += entries[index].found.records
            } else {
                merged.append(entries[index])
                lastKey = keys[index]
            }
        }
        entries = merged
        values = entries.map(\.value)
        folded = entries.map(\.folded)
        records = entries.map(\.found.records)
        numeric = entries.map(\.found.numeric)
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

    /// Each value starting with `prefix` (folded) with how many records have it and whether
    /// it is a number, in folded order.
    func counts(withPrefix prefix: String) -> [(value: String, records: Int, numeric: Bool)] {
        positions(withPrefix: prefix).map { (values[$0], records[$0], numeric[$0]) }
    }

    private func positions(withPrefix prefix: String) -> Range<Int> {
        let wanted = Folding.fold(prefix)
        var low = 0
        var high = folded.count
        while low < high {
            let middle = (low + high) / 2
            if folded[middle].utf8.lexicographicallyPrecedes(wanted.utf8) { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < folded.count, folded[end].utf8.starts(with: wanted.utf8) { end += 1 }
        return low..<end
    }
}

extension CacheKey where Value == ValueIndex {
    /// A field's value index (`ValueIndex.ifReady`).
    static func values(of path: String) -> CacheKey { CacheKey("values:" + path) }
}

#if canImport(Glibc)
import Glibc
#endif
