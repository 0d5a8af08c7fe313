import AlmanacCore

extension PostgresTable {
    /// `histogram FIELD` counted by the database: one statement for the statistics the bins
    /// are planned from (as memory plans them), one counting each bin, one for the commonest
    /// other words. No row leaves the server.
    public func histogram(_ query: TableQuery, field: String, bins: Int?, logarithmic: Bool,
                          cancellation: Cancellation = .never) throws -> HistogramAnswer {
        let statistics = try connection.query(builder.histogramStatistics(query, field: field), cancellation: cancellation)
        let count = { (column: Int) in Int(statistics.value(0, column) ?? "0") ?? 0 }
        let number = { (column: Int) in statistics.value(0, column).flatMap(Double.init) }
        let (numbers, dates) = (count(3), count(4))
        // As memory decides: dates when there are more dates than numbers.
        let kind: FieldMeasurements.Kind = dates > numbers ? .date : .number
        let values = kind == .date ? dates : numbers
        var plan: HistogramPlan?
        switch kind {
        case .date:
            if !logarithmic, let minimum = number(10), let maximum = number(11) {
                plan = Histogram.datePlan(minimum: minimum, maximum: maximum, bins: bins)
            }
        case .number where logarithmic:
            if let minimum = number(13), let maximum = number(14) {
                plan = Histogram.logarithmicPlan(count: count(12), minimum: minimum, maximum: maximum, bins: bins)
            }
        case .number:
            if let minimum = number(5), let maximum = number(6) {
                plan = Histogram.numberPlan(count: numbers, minimum: minimum, maximum: maximum, integers: statistics.isTrue(0, 9),
                                            bins: bins) { (number(8) ?? 0) - (number(7) ?? 0) }
            }
        }
        var histogram = Histogram.empty
        if let plan {
            let counted = try connection.query(builder.histogramCounts(query, field: field, dates: kind == .date, positive: logarithmic,
                                                                       edges: plan.edges), cancellation: cancellation)
            var counts = [Int](repeating: 0, count: plan.edges.count - 1)
            for row in 0..<counted.rowCount {
                if let place = Int(counted.value(row, 0) ?? ""), counts.indices.contains(place - 1) {
                    counts[place - 1] = Int(counted.value(row, 1) ?? "0") ?? 0
                }
            }
            histogram = Histogram.planned(plan, counts: counts)
            if kind == .number, count(15) > 0 { histogram.notation = .galacticYear }
        }
        let words = try connection.query(builder.histogramOthers(query, field: field, limit: 5), cancellation: cancellation)
        var others = (0..<words.rowCount).map { (text: words.value($0, 0) ?? "", count: Int(words.value($0, 1) ?? "0") ?? 0) }
        // The kind in the minority reads as other too, as in memory.
        if kind == .number, dates > 0 { others.append((text: "(dates)", count: dates)) }
        if kind == .date, numbers > 0 { others.append((text: "(numbers)", count: numbers)) }
        others.sort { $0.count != $1.count ? $0.count > $1.count : $0.text < $1.text }
        let model = RowDocument.empty(name: name, layout: schema.layout, source: source).model
        return HistogramAnswer(histogram: histogram, kind: kind, records: count(0), recordsWithValue: count(kind == .date ? 2 : 1),
                               values: values, positiveValues: count(kind == .number ? 12 : 16), otherValues: others,
                               noun: (model.singular, model.plural))
    }
}
