/// `sort FIELD [asc|desc]` and `group FIELD[, FIELD…]`.
public enum Ordering {
    /// Sorts by the field's first value: numbers numerically, text ignoring case and diacritics;
    /// records without the field come last either way. Stable.
    public static func sort(_ results: ResultSet, by field: String, descending: Bool, cancellation: Cancellation = .never) throws -> ResultSet {
        try requireField(field, in: results.datasets)
        let paths = results.datasets.map { $0.compile(FieldPath(field)) }
        enum Key: Comparable {
            case number(Double)
            case text(String)
            case missing
        }
        var keys: [Key] = []
        keys.reserveCapacity(results.count)
        var folded: [UInt64: String] = [:]
        for (position, item) in results.items.enumerated() {
            if position & 0xFFF == 0 { try cancellation.checkpoint() }
            let dataset = results.datasets[item.dataset]
            var key = Key.missing
            var seen = false
            dataset.forEachValue(of: paths[item.dataset], row: item.row) { value in
                guard !seen else { return }
                seen = true
                if let number = dataset.number(of: value) {
                    key = .number(number)
                } else if case let .node(node) = value, dataset.document.kind(at: node) == .string {
                    let word = dataset.document.nodes[node]
                    if let known = folded[word] { key = .text(known); return }
                    let text = Folding.fold(dataset.document.string(at: node))
                    folded[word] = text
                    key = .text(text)
                } else if case let .node(node) = value, dataset.document.kind(at: node) == .null {
                    key = .missing
                } else {
                    key = .text(Folding.fold(dataset.text(of: value)))
                }
            }
            keys.append(key)
        }
        let order = keys.indices.sorted { a, b in
            switch (keys[a], keys[b]) {
            case (.missing, .missing): return a < b
            case (.missing, _): return false
            case (_, .missing): return true
            default:
                if keys[a] == keys[b] { return a < b }
                return descending ? keys[a] > keys[b] : keys[a] < keys[b]
            }
        }
        return results.with(order.map { results.items[$0] })
    }

    /// One group: the values of the grouping fields and how many records have them.
    public struct Group: Sendable, Equatable {
        public var values: [String]
        public var count: Int
    }

    /// Counts records per combination of the fields' values, largest first (ties by value).
    /// A list field counts each of its values; a missing field groups as "".
    public static func group(_ results: ResultSet, by fields: [String], cancellation: Cancellation = .never) throws -> [Group] {
        for field in fields { try requireField(field, in: results.datasets) }
        let paths = results.datasets.map { dataset in fields.map { dataset.compile(FieldPath($0)) } }
        var counts: [[String]: Int] = [:]
        var order: [[String]] = []
        // Interned strings share a node word: name each word once.
        var names: [Int: [UInt64: String]] = [:]
        for (position, item) in results.items.enumerated() {
            if position & 0xFFF == 0 { try cancellation.checkpoint() }
            let dataset = results.datasets[item.dataset]
            var combinations: [[String]] = [[]]
            for path in paths[item.dataset] {
                var values: [String] = []
                dataset.forEachValue(of: path, row: item.row) { value in
                    if case let .node(node) = value, dataset.document.kind(at: node) == .string {
                        let word = dataset.document.nodes[node]
                        if let known = names[item.dataset]?[word] { values.append(known); return }
                        let text = dataset.document.string(at: node)
                        names[item.dataset, default: [:]][word] = text
                        values.append(text)
                    } else {
                        values.append(dataset.text(of: value))
                    }
                }
                if values.isEmpty { values = [""] }
                var unique: [String] = []
                for value in values where !unique.contains(value) { unique.append(value) }
                combinations = combinations.flatMap { prefix in unique.map { prefix + [$0] } }
            }
            for combination in combinations {
                if counts[combination] == nil { order.append(combination) }
                counts[combination, default: 0] += 1
            }
        }
        return order.map { Group(values: $0, count: counts[$0]!) }.sorted { a, b in
            if a.count != b.count { return a.count > b.count }
            return a.values.lexicographicallyPrecedes(b.values) { Folding.fold($0) < Folding.fold($1) }
        }
    }

    static func requireField(_ field: String, in datasets: [Dataset]) throws {
        guard datasets.contains(where: { FieldLookup.field(field, in: $0) != nil }) else {
            let all = Set(datasets.flatMap { FieldLookup.names(in: $0) })
            throw QueryError.unknownField(field, suggestion: Suggestion.closest(to: field, among: all.sorted()))
        }
    }
}
