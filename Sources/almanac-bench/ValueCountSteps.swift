import AlmanacCore

/// What TAB TAB does after `filter FIELD = ` (issue 30): the field's values with how many
/// records have each, under a condition joined by `and` and a typed beginning, as
/// `MemoryResults.valueCounts` answers the shell: from the field's value index for the whole
/// dataset, by filtering and counting under a condition. The most common value and its count
/// are checked against a plain scan of the records first.
enum ValueCountSteps {
    /// (id, field, condition before it, typed beginning).
    static let queries: [(id: String, field: String, condition: String?, prefix: String)] = [
        ("counts:country", "countryTitle", nil, ""),
        ("counts:region", "regionTitle", Queries.country, ""),
        ("counts:station", "stationTitle", nil, "Моск"),
        ("counts:station-in-country", "stationTitle", Queries.country, "Моск"),
        ("counts:stations-in-country", "stationTitle", Queries.country, ""),
    ]
    /// As many values as TAB asks for.
    static let limit = 100_000

    static func run(_ dataset: Dataset, record: (String, String, Stats, Int?) -> Void) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        // The value index the first TAB builds in the background, timed on fresh copies; then
        // built for the steps, as a session has it after that first TAB.
        let (indexStats, indexed) = try measure(warmups: 1, runs: 5) {
            ValueIndex.of(Dataset(name: dataset.name, model: dataset.model, document: dataset.document,
                                  extraction: Extraction(records: dataset.records, warnings: dataset.warnings, extras: dataset.extras),
                                  origin: dataset.origin), path: "stationTitle").count
        }
        record("counts:index", "value index of stationTitle: build (the first TAB pays it, in the background)", indexStats, indexed)
        for query in queries { _ = ValueIndex.of(dataset, path: query.field) }
        let results = MemoryResults(datasets: [dataset])
        for query in queries {
            let expected = try scan(dataset, field: query.field, condition: query.condition, prefix: query.prefix)
            let condition = try query.condition.map(Queries.filter)
            let (stats, found) = try measure(warmups: 2, runs: 11) {
                try results.valueCounts(of: query.field, where: condition, prefix: query.prefix, limit: limit, quick: true,
                                        cancellation: .never) ?? []
            } check: { found in
                try expect(found.first?.count ?? 0, expected.count, "\(query.id): the commonest value's count vs a scan")
                guard found.first?.value == expected.value else {
                    throw BenchError("\(query.id): commonest value \(found.first?.value ?? "none"), a scan says \(expected.value)")
                }
            }
            let typed = (query.condition.map { $0 + " and " } ?? "") + query.field + " = " + query.prefix
            record(query.id, "TAB with counts: filter \(typed)", stats, found.count)
            counts[query.id] = found.count
        }
        return counts
    }

    /// The commonest value of `field` (each once per record) among the records where the
    /// condition `FIELD = VALUE` holds, starting with `prefix` (lowercased), by a loop.
    static func scan(_ dataset: Dataset, field: String, condition: String?, prefix: String) throws -> (value: String, count: Int) {
        let path = dataset.compile(FieldPath(field))
        let wanted = condition.map { $0.components(separatedBy: " = ") }
        let conditionPath = wanted.map { dataset.compile(FieldPath($0[0])) }
        let beginning = prefix.lowercased()
        var tally: [String: Int] = [:]
        for row in 0..<dataset.count {
            if let wanted, let conditionPath,
               !dataset.values(of: conditionPath, row: row).contains(where: { dataset.text(of: $0) == wanted[1] }) { continue }
            let texts = Set(dataset.values(of: path, row: row).map { dataset.text(of: $0) })
            for text in texts where !text.isEmpty && text.lowercased().hasPrefix(beginning) { tally[text, default: 0] += 1 }
        }
        guard let top = tally.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }) else {
            throw BenchError("value counts: no \(field) values to scan")
        }
        return (top.key, top.value)
    }
}
