/// Counts per value and the conditions in force, for the results in memory: what completion
/// lists after `filter FIELD = ` and what explanations and `why` read.
extension MemoryResults {
    public func valueCounts(of field: String, where condition: FilterExpression?, prefix: String, limit: Int, quick: Bool,
                            cancellation: Cancellation) throws -> [ValueCount]? {
        // TAB never waits for a dataset's fields to be worked out.
        if quick, datasets.contains(where: { $0.fieldsIfReady == nil }) { return nil }
        // Every record of one dataset: its value index knows the counts (built in the background
        // at the first TAB on a large dataset).
        if !hasSteps, condition == nil, datasets.count == 1, let index = ValueIndex.ifReady(datasets[0], path: field),
           datasets[0].fieldsIfReady.map({ FieldLookup.field(field, in: $0) != nil }) == true {
            return ValueCount.ordered(index.counts(withPrefix: prefix), of: index, limit: limit)
        }
        var results = self.results
        if let condition { results = try Filter.run(condition, on: results, cancellation: cancellation) }
        if let counts = Self.indexedCounts(of: field, among: results, prefix: prefix, limit: limit) { return counts }
        // Only records with a value containing the beginning can have a value starting with it:
        // one quick pass (folded bytes, each distinct string once) before grouping fewer.
        if !prefix.isEmpty {
            results = try Filter.run(.comparison(field: field, op: .contains, value: prefix), on: results, cancellation: cancellation)
        }
        // Group numbers the field's values in every record of the dataset: for a few records
        // of many (a typed beginning, a narrow filter), counting them one by one is cheaper.
        let records = datasets.reduce(0) { $0 + $1.count }
        // Objects are counted as a filter compares them, which for one nothing names is by its
        // members (group counts it by its JSON text). A path across a link (`borders.name`) is
        // no field of the records: only group follows it.
        let objects = datasets.contains { $0.fieldsIfReady?.field(field)?.kinds.contains(.object) == true }
        // As does the records' dataset (`use all`): each dataset's records are one group.
        let crossesLink = DatasetField.names(field, inReady: datasets) || datasets.contains { (try? LinkPath.resolve(field, from: $0)) != nil }
        if !crossesLink, results.count * Self.fewRecordsShare < records || objects {
            return try ValueCount.tally(results, field: field, prefix: prefix, limit: limit, cancellation: cancellation)
        }
        return try ValueCount.counts(Group.run(results, by: GroupSpec(fields: [field]), cancellation: cancellation),
                                     field: field, prefix: prefix, limit: limit)
    }

    /// Results under 1/this of the records are counted record by record.
    static let fewRecordsShare = 8

    /// Some records of one dataset, counted from the field's value index when it is built: the
    /// rows of the values starting with `prefix` (one run of the index) tested against the
    /// results' rows, rather than each result's values read, folded and compared. Nil when the
    /// index is not ready, the field holds objects (`group` counts those whole), or the run is
    /// so much longer than the results that counting them one by one is cheaper.
    static func indexedCounts(of field: String, among results: ResultSet, prefix: String, limit: Int) -> [ValueCount]? {
        guard results.datasets.count == 1, let dataset = results.datasets.first,
              let found = dataset.fieldsIfReady?.field(field), !found.kinds.contains(.object),
              let index = ValueIndex.ifReady(dataset, path: field),
              let pairs = index.pairs(withPrefix: prefix), pairs <= results.count * indexedRunShare else { return nil }
        let members = RowSet(results.items, dataset: 0, rows: dataset.count)
        return ValueCount.ordered(index.counts(withPrefix: prefix, among: members), of: index, limit: limit)
    }

    /// An index run of up to this many rows per result is cheaper to test than the results to read.
    static let indexedRunShare = 32

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
        // Counted by node word first (equal short strings share one): a string is made, read
        // and folded once per distinct value, not once per record.
        var byNode = [[UInt64: (count: Int, node: Int)]](repeating: [:], count: results.datasets.count)
        var counts: [String: (count: Int, number: Double?)] = [:]
        var seen = RecordValues()
        // The values a filter compares: an object by its name.
        let naming = results.datasets.map { ObjectIdentity.keys(in: $0.document) }
        for (position, item) in results.items.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            let dataset = results.dataset(of: item)
            let document = dataset.document
            seen.reset()
            dataset.forEachComparedValue(of: paths[item.dataset], row: item.row, naming: naming[item.dataset]) { value in
                if case let .node(node) = value {
                    guard seen.isNew(node, in: document) else { return }
                    let word = document.node(node)
                    byNode[item.dataset][word, default: (0, node)].count += 1
                    return
                }
                guard dataset.isPresent(value) else { return }
                let text = dataset.text(of: value)
                guard !text.isEmpty, folded.isEmpty || Folding.fold(text).hasPrefix(folded), seen.isNew(text) else { return }
                counts[text, default: (0, dataset.number(of: value))].count += 1
            }
        }
        for (index, nodes) in byNode.enumerated() {
            let dataset = results.datasets[index]
            for (_, found) in nodes {
                let value = FieldValue.node(found.node)
                guard dataset.isPresent(value) else { continue }
                let text = dataset.text(of: value)
                guard !text.isEmpty, folded.isEmpty || Folding.fold(text).hasPrefix(folded) else { continue }
                counts[text, default: (0, dataset.number(of: value))].count += found.count
            }
        }
        return ordered(counts.map { ($0.key, $0.value.count, $0.value.number) }, limit: limit)
    }

    /// Values and their counts as `Group` orders groups: most first, then numbers by value,
    /// then text by its folding, then by code point; at most `limit`.
    static func ordered(_ counts: [(text: String, count: Int, number: Double?)], limit: Int) -> [ValueCount] {
        let ordered = counts.map { (text: $0.text, count: $0.count, number: $0.number, folded: Array(Folding.fold($0.text).utf8)) }
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

    /// A value index's values (by position, in its folded order) and their counts, ordered as
    /// `ordered` orders them without folding each again: the index's order is already the
    /// tie-break for text (folding, then code points). Words for none (`n/a`) left out; a
    /// String made only for the values listed.
    static func ordered(_ counts: [(position: Int, records: Int)], of index: ValueIndex, limit: Int) -> [ValueCount] {
        let counts = counts.filter { !ValueText.isAbsent(index.value(at: $0.position)) }
        let numbers = counts.map { index.isNumber(at: $0.position) ? Double(index.value(at: $0.position)) : nil }
        let order = counts.indices.sorted { a, b in
            if counts[a].records != counts[b].records { return counts[a].records > counts[b].records }
            switch (numbers[a], numbers[b]) {
            case let (first?, second?) where first != second: return first < second
            case (.some, nil): return true
            case (nil, .some): return false
            default: return a < b
            }
        }
        return order.prefix(limit).map { ValueCount(index.value(at: counts[$0].position), count: counts[$0].records) }
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
