/// Why a filter left no records, and which near spelling a filter missed: worked out from the
/// results before the filter (any source: in memory or a database), only when the answer is
/// empty — or, for a near spelling, only when the data has one — so a filter costs nothing more.
public enum Explanation {
    /// One or two lines, each `no records — …`: a value no record has but one like it does
    /// (`region has no value 'Europa'; did you mean Europe (53)?`), else the condition that
    /// removed the last records and what their values were (`population > 1,000,000,000 removed
    /// all 53 Europe records; the largest population among them is 144,104,080 (Russian Federation)`).
    public static func empty(after expression: FilterExpression, on before: any ResultsSource,
                             cancellation: Cancellation) throws -> [String] {
        var before = before
        let total = try before.count(fresh: false, cancellation: cancellation)
        guard total > 0 else { return ["no records — there were none to filter ('back' undoes the last step)"] }
        let among = !before.conditions.isEmpty ? " among these \(total.grouped) records" : ""
        // A value nothing has, spelt like one that is there ("among these": when a condition narrowed them).
        var lines: [String] = []
        var missing: [String: [ValueCount]] = [:]
        for (field, value) in equalities(in: expression) where lines.count < 2 {
            var matching = try before.applying(.filter(.comparison(field: field, op: .equal, value: value)), cancellation: cancellation)
            guard try matching.count(fresh: false, cancellation: cancellation) == 0,
                  let values = try before.valueCounts(of: field, where: nil, prefix: "", limit: valueLimit, quick: false,
                                                      cancellation: cancellation) else { continue }
            let near = NearValues.near(value, among: values)
            if near.isEmpty {
                missing[field + "\u{0}" + value] = values
            } else {
                lines.append("no records — \(field) has no value '\(value)'\(among); did you mean \(listed(near, joinedBy: "or"))?")
            }
        }
        if !lines.isEmpty { return lines }
        // Else the condition after which none was left.
        var current = before
        var count = total
        var earlier: [FilterExpression] = []
        for conjunct in expression.conjuncts {
            var next = try current.applying(.filter(conjunct), cancellation: cancellation)
            let left = try next.count(fresh: false, cancellation: cancellation)
            if left == 0 {
                if case let .comparison(field, .equal, value) = conjunct, let values = missing[field + "\u{0}" + value] {
                    return ["no records — \(field) has no value '\(value)'\(among)" + valuesNote(values, field: field, lead: "its values")]
                }
                let records = described(count, by: before.conditions + earlier)
                let note = try self.note(on: conjunct, among: current, cancellation: cancellation)
                return ["no records — \(conjunct.shown) removed all \(records)" + note]
            }
            earlier.append(conjunct)
            current = next
            count = left
        }
        return []
    }

    /// `also 'mammals' (1)`: when the answer has records and another form of an `=` value
    /// (singular or plural) would add a few more — fewer than the answer has. Asked of the
    /// field's values by their beginning (an index in memory, a quick query in a database):
    /// only a spelling the data has costs a count. `kept`: how many the answer has, counted
    /// only when such a spelling is found.
    public static func also(after expression: FilterExpression, on before: any ResultsSource, kept: () throws -> Int,
                            cancellation: Cancellation) throws -> String? {
        var found: [String] = []
        for (field, value) in equalities(in: expression) {
            let folded = Folding.fold(value)
            let stem = stem(of: folded)
            guard stem.count >= 3 else { continue }
            let forms = (before.completionValues(of: field, prefix: stem, limit: 50) ?? []).filter {
                NearValues.isOtherForm(Folding.fold($0), of: folded)
            }
            for form in forms {
                let widened = expression.replacing(field: field, value: value, with: form)
                var added = try before.applying(.filter(.and(widened, .not(expression))), cancellation: cancellation)
                let count = try added.count(fresh: false, cancellation: cancellation)
                if count > 0, try count < kept() { found.append("'\(form)' (\(count.grouped))") }
            }
        }
        return found.isEmpty ? nil : "also " + found.joined(separator: ", ")
    }

    /// How many values an explanation reads at most (a database is asked for the commonest).
    static let valueLimit = 10_000

    /// The `FIELD = VALUE` comparisons that must hold for a record to be kept (not under a
    /// `not`), of text values (numbers are not misspelt).
    static func equalities(in expression: FilterExpression) -> [(field: String, value: String)] {
        switch expression {
        case let .comparison(field, .equal, value) where NumericText.literal(value) == nil && !value.isEmpty: [(field, value)]
        case let .and(left, right), let .or(left, right): equalities(in: left) + equalities(in: right)
        default: []
        }
    }

    /// The word without a plural's ending (`mammals` → mammal, `countries` → countr): the
    /// beginning its other forms share.
    static func stem(of folded: String) -> String {
        if folded.hasSuffix("ies") { return String(folded.dropLast(3)) }
        if folded.hasSuffix("es") || folded.hasSuffix("y") { return String(folded.dropLast(folded.hasSuffix("es") ? 2 : 1)) }
        if folded.hasSuffix("s") { return String(folded.dropLast()) }
        return folded
    }

    /// `53 Europe records`, `250 records`, `9 records of region = Europe and subregion = …`.
    static func described(_ count: Int, by conditions: [FilterExpression]) -> String {
        let conjuncts = conditions.flatMap(\.conjuncts)
        if conjuncts.isEmpty { return "\(count.grouped) records" }
        if conjuncts.count == 1, case let .comparison(_, .equal, value) = conjuncts[0] { return "\(count.grouped) \(value) records" }
        let text = conjuncts.map(\.shown).joined(separator: " and ")
        return text.count <= 80 ? "\(count.grouped) records of \(text)" : "\(count.grouped) records"
    }

    /// What the records the condition removed held: the largest or smallest value a `>` or
    /// `<` wanted more or less of, a near spelling of an `=` value, else their values.
    static func note(on condition: FilterExpression, among records: any ResultsSource, cancellation: Cancellation) throws -> String {
        if case let .computed(expression) = condition { return try note(on: expression, among: records, cancellation: cancellation) }
        guard case let .comparison(field, op, value) = condition else { return "" }
        if op.isOrdering {
            let largest = op == .greater || op == .greaterOrEqual
            var sorted = try records.applying(.sort([SortKey(field, descending: largest)]), cancellation: cancellation)
            let page = try sorted.page(start: 0, size: 1, cancellation: cancellation)
            guard let position = page.range.first else { return "" }
            let item = page.results.items[position]
            let dataset = page.results.dataset(of: item)
            // A step's column (near's distance) is the results', not the dataset's.
            let shown = page.results.computed.named(field).map { $0.text(of: item) }
                ?? dataset.displayText(of: dataset.compile(FieldPath(field)), row: item.row)
            guard let text = shown else {
                return "; none of them has a \(field)"
            }
            return "; the \(largest ? "largest" : "smallest") \(field) among them is \(text) (\(dataset.name(of: item.row)))"
        }
        guard let values = try records.valueCounts(of: field, where: nil, prefix: "", limit: valueLimit, quick: false,
                                                   cancellation: cancellation) else { return "" }
        if op == .equal, NumericText.literal(value) == nil {
            let near = NearValues.near(value, among: values)
            if !near.isEmpty { return "; did you mean \(listed(near, joinedBy: "or"))?" }
        }
        return valuesNote(values, field: field, lead: "their \(field)")
    }

    /// A computed `>` or `<` against a constant (`population / area > 1e5`): the largest or
    /// smallest value of its computed side among the records, as for a field.
    static func note(on expression: Expression, among records: any ResultsSource, cancellation: Cancellation) throws -> String {
        guard case let .comparison(op, left, right) = expression.node, right.fields.isEmpty, !left.fields.isEmpty,
              [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(op) else { return "" }
        let largest = op == .greater || op == .greaterOrEqual
        // A side that cannot be sorted (a database refusing the expression) leaves the note out, not the explanation.
        guard var sorted = try? records.applying(.sort([SortKey(left.description, descending: largest)]), cancellation: cancellation),
              let page = try? sorted.page(start: 0, size: 1, cancellation: cancellation), let position = page.range.first else { return "" }
        let item = page.results.items[position]
        guard let shown = ConditionCheck.computedText(of: left, for: page.results.with([item])) else { return "" }
        guard let shown else { return "; none of them has a \(left)" }
        return "; the \(largest ? "largest" : "smallest") \(left) among them is \(shown) (\(page.results.dataset(of: item).name(of: item.row)))"
    }

    /// `; their subregion: Southern Europe (17), Northern Europe (16) and 2 more`.
    static func valuesNote(_ values: [ValueCount], field: String, lead: String) -> String {
        guard !values.isEmpty else { return "; none of them has a \(field)" }
        // A field of names (each value once or so) is no list to read.
        guard values.count <= 8 || values[0].count > 1 else { return "" }
        let shown = values.prefix(values.count <= 6 ? 6 : 4).map(\.shown)
        let more = values.count - shown.count
        return "; \(lead): " + shown.joined(separator: ", ") + (more > 0 ? " and \(more.grouped) more" : "")
    }

    /// `Europe (53)`, `A (2) or B (1)`.
    static func listed(_ values: [ValueCount], joinedBy word: String) -> String {
        let shown = values.map(\.shown)
        guard shown.count > 1 else { return shown.first ?? "" }
        return shown.dropLast().joined(separator: ", ") + " \(word) " + shown.last!
    }
}

extension FilterExpression {
    /// The expression with `FIELD = VALUE` comparing with another value.
    func replacing(field: String, value: String, with other: String) -> FilterExpression {
        switch self {
        case let .comparison(name, .equal, text) where name == field && text == value: .comparison(field: name, op: .equal, value: other)
        case let .and(left, right): .and(left.replacing(field: field, value: value, with: other), right.replacing(field: field, value: value, with: other))
        case let .or(left, right): .or(left.replacing(field: field, value: value, with: other), right.replacing(field: field, value: value, with: other))
        default: self
        }
    }
}
