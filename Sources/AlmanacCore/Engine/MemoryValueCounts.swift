/// Counts per value and the conditions in force, for the results in memory: what completion
/// lists after `filter FIELD = ` and what explanations and `why` read.
extension MemoryResults {
    public func valueCounts(of field: String, where condition: FilterExpression?, prefix: String, limit: Int, quick: Bool,
                            cancellation: Cancellation) throws -> [ValueCount]? {
        // TAB never waits for a dataset's fields to be worked out.
        if quick, datasets.contains(where: { $0.fieldsIfReady == nil }) { return nil }
        var results = self.results
        if let condition { results = try Filter.run(condition, on: results, cancellation: cancellation) }
        // Only records with a value containing the beginning can have a value starting with it:
        // one quick pass (folded bytes, each distinct string once) before grouping fewer.
        if !prefix.isEmpty {
            results = try Filter.run(.comparison(field: field, op: .contains, value: prefix), on: results, cancellation: cancellation)
        }
        // Group numbers the field's values in every record of the dataset: for a few records
        // of many (a typed beginning, a narrow filter), counting them one by one is cheaper.
        let records = datasets.reduce(0) { $0 + $1.count }
        if results.count * Self.fewRecordsShare < records {
            return try ValueCount.tally(results, field: field, prefix: prefix, limit: limit, cancellation: cancellation)
        }
        return try ValueCount.counts(Group.run(results, by: GroupSpec(fields: [field]), cancellation: cancellation),
                                     field: field, prefix: prefix, limit: limit)
    }

    /// Results under 1/this of the records are counted record by record.
    static let fewRecordsShare = 8

    public var conditions: [FilterExpression] { QueryStep.conditions(of: steps) }
}

extension ValueCount {
    /// The values of `field` starting with `prefix` (folded) and how many of the results have
    /// each (once per record), counted record by record; ordered as `Group` orders groups:
    /// most first, then numbers by value, then text by its folding, then by code point.
    static func tally(_ results: ResultSet, field: String, prefix: String, limit: Int,
                      cancellation: Cancellation) throws -> [ValueCount] {
        let folded = Folding.fold(prefix)
        let paths = results.datasets.map { $0.compile(FieldPath(field)) }
        var counts: [String: (count: Int, number: Double?)] = [:]
        var seen: Set<String> = []
        for (position, item) in results.items.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            let dataset = results.dataset(of: item)
            seen.removeAll(keepingCapacity: true)
            dataset.forEachValue(of: paths[item.dataset], row: item.row) { value in
                guard dataset.isPresent(value) else { return }
                let text = dataset.text(of: value)
                guard !text.isEmpty, seen.insert(text).inserted else { return }
                if let known = counts[text] {
                    counts[text] = (known.count + 1, known.number)
                } else if folded.isEmpty || Folding.fold(text).hasPrefix(folded) {
                    counts[text] = (1, dataset.number(of: value))
                }
            }
        }
        let ordered = counts.map { (text: $0.key, count: $0.value.count, number: $0.value.number, folded: Array(Folding.fold($0.key).utf8)) }
            .sorted { a, b in
                if a.count != b.count { return a.count > b.count }
                switch (a.number, b.number) {
                case let (first?, second?) where first != second: return first < second
                case (.some, nil): return true
                case (nil, .some): return false
                default: break
                }
                if a.folded != b.folded { return a.folded.lexicographicallyPrecedes(b.folded) }
                return a.text.utf8.lexicographicallyPrecedes(b.text.utf8)
            }
        return ordered.prefix(limit).map { ValueCount($0.text, count: $0.count) }
    }

    /// A group listing's values (largest first) as counts: the values starting with `prefix`,
    /// without the `<none>` group.
    static func counts(_ groups: Groups, field: String, prefix: String, limit: Int) -> [ValueCount] {
        let folded = Folding.fold(prefix)
        var counts: [ValueCount] = []
        for row in groups where counts.count < limit {
            let value = row.values[0]
            guard !value.isEmpty, folded.isEmpty || Folding.fold(value).hasPrefix(folded) else { continue }
            counts.append(ValueCount(value, count: row.count))
        }
        return counts
    }
}

extension QueryStep {
    /// The conditions of `steps` since the last step that starts afresh (search, clear, near…):
    /// filters as they are, drill-downs as `FIELD = VALUE` (`FIELD is null` for `<none>`).
    public static func conditions(of steps: [QueryStep]) -> [FilterExpression] {
        var conditions: [FilterExpression] = []
        for step in steps {
            switch step {
            case let .filter(expression): conditions.append(expression)
            case let .drill(spec, row):
                for (field, value) in zip(spec.fields, row.values) {
                    conditions.append(value.isEmpty ? .computed(Expression(.isNull(Expression(.field(field)), negated: false)))
                                                    : .comparison(field: field, op: .equal, value: value))
                }
            case .search, .clear, .near, .within, .outside, .reach: conditions = []
            case .sort, .limit, .clearLimits: break
            }
        }
        return conditions
    }
}
