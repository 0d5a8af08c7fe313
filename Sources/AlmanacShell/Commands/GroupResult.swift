import AlmanacCore

/// The table `group` answers with, whichever side counted the groups (memory or a database):
/// the group fields' values (`<none>` for none), the count and the percent of the records,
/// then the aggregates — count and distinct as integers, the others as numbers (or text, for
/// the min and max of text).
enum GroupResult {
    static func columns(_ spec: GroupSpec) -> [ResultColumn] {
        spec.fields.map { ResultColumn(ComputedField.title(of: $0), absentText: "<none>") } + [ResultColumn("count", .integer), ResultColumn("percent", .decimal)]
            + spec.aggregates.map { ResultColumn($0.description, counts($0.function) ? .integer : .decimal) }
    }

    /// The groups as a numbered table (`show #N` names a group); `total` is how many records were grouped.
    static func table(_ spec: GroupSpec, count: Int, total: Int, row: @escaping @Sendable (Int) -> Group.Row) -> ResultTable {
        let functions = spec.aggregates.map(\.function)
        var table = ResultTable(columns: columns(spec), count: count) { index in
            let group = row(index)
            // A tenth of a percent, from the counts.
            let percent = total == 0 ? 0 : (Double(group.count) * 1000 / Double(total)).rounded() / 10
            let values = group.values.indices.map { index -> ResultValue in
                if group.values[index].isEmpty { return .absent }
                return group.numbers[index] ? .literal(group.values[index]) : .text(group.values[index])
            }
            return values + [.integer(group.count), .decimal(percent)] + zip(group.aggregates, functions).map(value)
        }
        table.firstNumber = 1
        return table
    }

    /// The answer: the table, and for people each group's share as a bar, the largest group's
    /// filling the terminal.
    static func result(_ spec: GroupSpec, count: Int, total: Int, in session: Session,
                       row: @escaping @Sendable (Int) -> Group.Row) -> CommandResult {
        let table = table(spec, count: count, total: total, row: row)
        let bars = BarColumn.appending(to: table, quantities: (0..<count).map { Double(row($0).count) }, context: session.renderContext)
        return CommandResult(table, prose: .table(bars), emptyNote: "no records to group")
    }

    /// An aggregate as a result value: counts as integers, other whole numbers as integers too.
    static func value(_ aggregate: AggregateValue, of function: Aggregate.Function) -> ResultValue {
        switch aggregate {
        case let .number(number) where counts(function) && number.isFinite: .integer(Int(number))
        case let .number(number): number == number.rounded() && abs(number) < 1e15 ? .integer(Int(number)) : .decimal(number)
        case let .text(text): .text(text)
        case .none: .absent
        }
    }

    /// count and distinct count records or values: whole numbers.
    static func counts(_ function: Aggregate.Function) -> Bool { function == .count || function == .distinct }
}
