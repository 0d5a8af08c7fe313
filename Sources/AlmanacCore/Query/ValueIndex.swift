/// A field's distinct values in folded order, for completing `filter countryTitle = Гер<TAB>`
/// or `filter currencies.code = EU<TAB>` however many values the field has. Built on first use
/// and kept with the dataset; equal short strings share a node, so each is folded once.
public struct ValueIndex: Sendable {
    /// The values, and their foldings, sorted by folding.
    private let values: [String]
    private let folded: [String]

    public var count: Int { values.count }

    init(_ dataset: Dataset, path: String) {
        let compiled = dataset.compile(FieldPath(path))
        let document = dataset.document
        var seenNodes = Set<UInt64>()
        var seenTexts = Set<String>()
        var pairs: [(folded: String, value: String)] = []
        for row in 0..<dataset.count {
            dataset.forEachValue(of: compiled, row: row) { value in
                if case let .node(node) = value {
                    // null is no value; equal strings share a node word: one look each.
                    guard document.kind(at: node) != .null, seenNodes.insert(document.node(node)).inserted else { return }
                }
                let text = dataset.text(of: value)
                guard !text.isEmpty, seenTexts.insert(text).inserted else { return }
                pairs.append((Folding.fold(text), text))
            }
        }
        pairs.sort { $0.folded == $1.folded ? $0.value < $1.value : $0.folded < $1.folded }
        values = pairs.map(\.value)
        folded = pairs.map(\.folded)
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
        let wanted = Folding.fold(prefix)
        var low = 0
        var high = folded.count
        while low < high {
            let middle = (low + high) / 2
            if folded[middle] < wanted { low = middle + 1 } else { high = middle }
        }
        var found: [String] = []
        var index = low
        while index < folded.count, found.count < limit, folded[index].hasPrefix(wanted) {
            found.append(values[index])
            index += 1
        }
        return found
    }
}

extension CacheKey where Value == ValueIndex {
    /// A field's value index (`ValueIndex.ifReady`).
    static func values(of path: String) -> CacheKey { CacheKey("values:" + path) }
}
