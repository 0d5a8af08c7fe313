/// Which conditions of the filters in force one record meets, and with which of its values
/// (for a list, which elements): what `why #N` answers.
public struct ConditionCheck: Sendable, Equatable {
    /// The condition as people read it (`population > 10,000,000`).
    public var condition: String
    public var holds: Bool
    /// What the record has for each field the condition compares: `population 59,554,023`,
    /// `languages.name Italian (2 of 3: German, Italian, French)`.
    public var values: [String]

    /// Each top-level `and` of `conditions` (the filters since the last search, first to last),
    /// checked on `record` alone. `results` (the results in force) lend it the values a step
    /// computed for it (near's distance); a record they left out has none.
    public static func check(_ conditions: [FilterExpression], on record: RecordRef, among results: ResultSet? = nil,
                             cancellation: Cancellation = .never) throws -> [ConditionCheck] {
        var alone = ResultSet(datasets: [record.dataset], items: [ResultSet.Item(dataset: 0, row: record.row)])
        // Among results spanning datasets, the record's dataset is a field (`DatasetField`).
        if let results, !results.computed.isEmpty || results.spansDatasets,
           let index = results.datasets.firstIndex(where: { $0 === record.dataset }) {
            alone = results.with([ResultSet.Item(dataset: index, row: record.row)])
        }
        return try conditions.flatMap(\.conjuncts).map { condition in
            let holds = try !Filter.run(condition, on: alone, cancellation: cancellation).isEmpty
            return ConditionCheck(condition: condition.shown, holds: holds, values: values(in: condition, of: record, among: alone))
        }
    }

    /// The same, where whether a condition holds is `holds`'s to say: a table's row, whose
    /// paths across the database's links (`linked`: their first names) only the database can
    /// follow. Values are the row's own fields', and a linked path's (or a computed operand's
    /// that crosses one) as `fetched` has them by `linkedOperands`' names — the database's
    /// answer for this row; one not fetched is left out, never shown wrong.
    public static func check(_ conditions: [FilterExpression], on record: RecordRef, linked: Set<String>,
                             fetched: [String: ResultValue] = [:], holds: (FilterExpression) throws -> Bool) throws -> [ConditionCheck] {
        let crosses = { (field: String) in linked.contains(String(field.split(separator: ".").first ?? "").lowercased()) }
        return try conditions.flatMap(\.conjuncts).map { condition in
            var seen: Set<String> = []
            var values = condition.comparisons.compactMap { field, op, value -> String? in
                guard seen.insert(field.lowercased()).inserted else { return nil }
                guard crosses(field) else { return shown(field, meeting: op, value, of: record) }
                return fetched[field].map { shown(field, meeting: op, value, fetched: $0, in: record.dataset) }
            }
            if case let .computed(expression) = condition {
                let alone = ResultSet(datasets: [record.dataset], items: [ResultSet.Item(dataset: 0, row: record.row)])
                values = computedValues(expression, among: alone) { operand in
                    !operand.fields.contains(where: crosses) || fetched[operand.description] != nil
                } fetched: { operand in
                    operand.fields.contains(where: crosses) ? fetched[operand.description].map(text(of:)) : nil
                }
            }
            return ConditionCheck(condition: condition.shown, holds: try holds(condition), values: values)
        }
    }

    /// What a table's `why` asks the database for, by the names `check` reads them: each
    /// compared path that crosses a link, and each operand of a computed condition that does.
    public static func linkedOperands(of conditions: [FilterExpression], linked: Set<String>) -> [String] {
        let crosses = { (field: String) in linked.contains(String(field.split(separator: ".").first ?? "").lowercased()) }
        var names: [String] = []
        for condition in conditions.flatMap(\.conjuncts) {
            names += condition.comparisons.map(\.field).filter(crosses)
            if case let .computed(expression) = condition {
                names += comparedOperands(expression).filter { $0.fields.contains(where: crosses) }.map(\.description)
            }
        }
        var seen: Set<String> = []
        return names.filter { seen.insert($0.lowercased()).inserted }
    }

    /// Whether `record` alone meets `condition` (an error for a path it cannot follow).
    public static func holds(_ condition: FilterExpression, on record: RecordRef, cancellation: Cancellation = .never) throws -> Bool {
        let alone = ResultSet(datasets: [record.dataset], items: [ResultSet.Item(dataset: 0, row: record.row)])
        return try !Filter.run(condition, on: alone, cancellation: cancellation).isEmpty
    }

    /// Each field a condition compares, once, with the record's values (a computed column's
    /// from `alone`, the record among the results).
    static func values(in condition: FilterExpression, of record: RecordRef, among alone: ResultSet) -> [String] {
        if case let .computed(expression) = condition { return computedValues(expression, among: alone) }
        var seen: Set<String> = []
        return condition.comparisons.compactMap { field, op, value in
            guard seen.insert(field.lowercased()).inserted else { return nil }
            if let column = alone.computed.named(field), let item = alone.items.first {
                return "\(field) \(column.text(of: item) ?? "none")"
            }
            if DatasetField.names(field, in: alone.datasets.compactMap(\.fieldsIfReady)) {
                return "\(field) \(record.dataset.name)"
            }
            return shown(field, meeting: op, value, of: record)
        }
    }

    /// What a computed condition compares, computed for the record alone (`population / area
    /// 106.32`, `count(borders) 8`): each side of its comparisons that names a field, once;
    /// `shows` leaves out what cannot be computed here (a table's path across a link).
    static func computedValues(_ expression: Expression, among alone: ResultSet, shows: (Expression) -> Bool = { _ in true },
                               fetched: (Expression) -> String?? = { _ in nil }) -> [String] {
        var seen: Set<String> = []
        return comparedOperands(expression).compactMap { operand in
            guard !operand.fields.isEmpty, shows(operand), seen.insert(operand.description).inserted,
                  let shown = fetched(operand) ?? computedText(of: operand, for: alone) else { return nil }
            return "\(operand) \(shown ?? "none")"
        }
    }

    /// The sides of a computed condition's comparisons, and what `is null` asks about, in order.
    static func comparedOperands(_ expression: Expression) -> [Expression] {
        var operands: [Expression] = []
        expression.visit { node in
            switch node.node {
            case let .comparison(_, left, right): operands += [left, right]
            case let .isNull(operand, _): operands.append(operand)
            default: break
            }
        }
        return operands
    }

    /// A value the database computed, as `computedText` writes one (`106.32`, a list's first
    /// values); .some(nil) when there is none.
    static func text(of fetched: ResultValue) -> String? {
        let texts = elements(of: fetched).map { element -> String in
            if case let .number(number) = element { return NumberFormat.grouped(number) }
            if case let .text(text) = element { return text }
            return ""
        }.filter { !$0.isEmpty }
        guard !texts.isEmpty else { return nil }
        return texts.prefix(listedLimit).joined(separator: ", ") + (texts.count > listedLimit ? ", …" : "")
    }

    /// A fetched value's elements as a filter compares them: numbers, else text (a date as ISO 8601).
    static func elements(of fetched: ResultValue) -> [FieldValue] {
        switch fetched {
        case .absent, .record, .link, .source: return []
        case let .list(values): return values.flatMap(elements(of:))
        case let .text(text): return ValueText.isAbsent(text) ? [] : [.text(text)]
        case let .integer(number): return [.number(Double(number))]
        case let .decimal(number): return [.number(number)]
        case let .literal(literal): return [Double(literal).map(FieldValue.number) ?? .text(literal)]
        case let .boolean(value): return [.text(value ? "true" : "false")]
        case let .date(date): return [.text(CalendarDate.iso8601(date.timeIntervalSince1970))]
        }
    }

    /// `operand` computed for the one item of `alone`, as people read it (`106.32`; a list's
    /// first values); .some(nil) when the record has none, nil when it cannot be computed.
    static func computedText(of operand: Expression, for alone: ResultSet) -> String?? {
        guard let vector = try? ComputedValues.evaluate(operand, over: alone), vector.count > 0 else { return nil }
        let texts = vector.range(of: 0).compactMap { index -> String? in
            guard vector.isPresent(index) else { return nil }
            if case let .numbers(numbers) = vector.values, vector.type != .date { return NumberFormat.grouped(numbers[index]) }
            return vector.text(at: index)
        }
        guard !texts.isEmpty else { return .some(nil) }
        return texts.prefix(listedLimit).joined(separator: ", ") + (texts.count > listedLimit ? ", …" : "")
    }

    /// `population 59,554,023`, `region none`, `languages.name Italian (2 of 3: German, Italian, French)`.
    static func shown(_ field: String, meeting op: FilterExpression.Operator, _ value: String, of record: RecordRef) -> String {
        let dataset = record.dataset
        let path = FieldPath(field)
        var found = Filter.values(of: field, meeting: op, value, in: dataset, row: record.row)
            .compactMap { found in dataset.displayText(of: found.value, in: path).map { (text: $0, meets: found.meets) } }
        if found.isEmpty { found = linkedValues(field, meeting: op, value, of: record) }
        return listed(field, found)
    }

    /// The same for a path the database followed for the record (`fetched`: its values), each
    /// element compared as the filter compares it.
    static func shown(_ field: String, meeting op: FilterExpression.Operator, _ value: String, fetched: ResultValue,
                      in dataset: Dataset) -> String {
        var comparison = FieldComparison(dataset: dataset, path: dataset.compile(FieldPath(field)), op: op, value: value)
        return listed(field, elements(of: fetched).compactMap { element in
            dataset.displayText(of: element, in: FieldPath(field)).map { (text: $0, meets: comparison.meets(element)) }
        })
    }

    /// `region Europe`, `region none`, `languages.name Italian (2 of 3: German, Italian, French)`.
    static func listed(_ field: String, _ found: [(text: String, meets: Bool)]) -> String {
        guard found.count > 1 else { return "\(field) \(found.first?.text ?? "none")" }
        let matched = found.filter(\.meets).map(\.text)
        let all = found.prefix(listedLimit).map(\.text).joined(separator: ", ") + (found.count > listedLimit ? ", …" : "")
        let lead = matched.isEmpty ? "none matches" : matched.prefix(listedLimit).joined(separator: ", ")
        return "\(field) \(lead) (\(matched.count) of \(found.count): \(all))"
    }

    /// How many of a list's values are named.
    static let listedLimit = 8

    /// The values a link path (`homeworld.climate`, `borders.name`) leads the record to, each
    /// with whether it meets `op value` as the filter compares it; none when it is no link path.
    static func linkedValues(_ field: String, meeting op: FilterExpression.Operator, _ value: String,
                             of record: RecordRef) -> [(text: String, meets: Bool)] {
        guard let path = try? LinkPath.resolve(field, from: record.dataset),
              let vector = try? LinkGather.values(path, rows: [record.row], cancellation: .never) else { return [] }
        let dataset = record.dataset
        var comparison = FieldComparison(dataset: dataset, path: dataset.compile(FieldPath(field)), op: op, value: value)
        return vector.range(of: 0).filter(vector.isPresent).compactMap { index in
            let element: FieldValue
            switch vector.values {
            case let .numbers(numbers) where vector.type.element == .date: element = .text(CalendarDate.iso8601(numbers[index]))
            case let .numbers(numbers): element = .number(numbers[index])
            case .texts, .booleans: element = .text(vector.text(at: index) ?? "")
            }
            return dataset.displayText(of: element, in: FieldPath(field)).map { (text: $0, meets: comparison.meets(element)) }
        }
    }
}

extension FilterExpression {
    /// The `FIELD OP VALUE` comparisons in the expression, in the order written.
    public var comparisons: [(field: String, op: Operator, value: String)] {
        switch self {
        case let .comparison(field, op, value): [(field, op, value)]
        case let .and(left, right), let .or(left, right): left.comparisons + right.comparisons
        case let .not(inner): inner.comparisons
        case .computed: []
        }
    }
}
