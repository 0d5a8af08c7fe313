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
        return try ValueCount.counts(Group.run(results, by: GroupSpec(fields: [field]), cancellation: cancellation),
                                     field: field, prefix: prefix, limit: limit)
    }

    public var conditions: [FilterExpression] { QueryStep.conditions(of: steps) }
}

extension ValueCount {
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
