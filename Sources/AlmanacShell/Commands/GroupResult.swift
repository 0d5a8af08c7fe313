import AlmanacCore
import Foundation

/// The table `group` answers with, whichever side counted the groups (memory or a database):
/// the group fields' values (`<none>` for none), the count and the percent of the records,
/// then the aggregates — count and distinct as integers, the others as numbers (or text, for
/// the min and max of text).
enum GroupResult {
    static func columns(_ spec: GroupSpec) -> [ResultColumn] {
        // Calendar parts read as digits (2024), and the sum, mean, min and max of them too.
        spec.fields.map { ResultColumn(ComputedField.title(of: $0), grouped: ComputedField.groupsThousands($0), absentText: "<none>") }
            + [ResultColumn("count", .integer), ResultColumn("percent", .decimal)]
            + spec.aggregates.map {
                ResultColumn($0.description, counts($0.function) ? .integer : .decimal,
                             grouped: counts($0.function) || ComputedField.groupsThousands($0.field))
            }
    }

    /// The groups as a numbered table (`show #N` names a group); `total` is how many records were grouped.
    static func table(_ spec: GroupSpec, count: Int, total: Int, row: @escaping @Sendable (Int) -> Group.Row) -> ResultTable {
        let functions = spec.aggregates.map(\.function)
        var table = ResultTable(columns: columns(spec), count: count) { index in
            let group = row(index)
            let percent = share(group.count, of: total)
            let values = group.values.indices.map { index -> ResultValue in
                if group.values[index].isEmpty { return .absent }
                return group.numbers[index] ? .literal(group.values[index]) : .text(group.values[index])
            }
            // Below 1 as its digits (0.025), which a decimal's two places would round.
            let shown: ResultValue = percent < 1 && percent > 0 ? .literal(NumberFormat.plain(percent)) : .decimal(percent)
            return values + [.integer(group.count), shown] + zip(group.aggregates, functions).map(value)
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

    /// A group's share of `total` in percent: to a tenth from 1 up, and below 1 to two
    /// significant digits (1 of 4,037 is 0.025), so a group that has records never reads 0.
    static func share(_ count: Int, of total: Int) -> Double {
        guard total > 0, count > 0 else { return 0 }
        let exact = Double(count) * 100 / Double(total)
        guard exact < 1 else { return (exact * 10).rounded() / 10 }
        let scale = pow(10, 1 - log10(exact).rounded(.down))
        return (exact * scale).rounded() / scale
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
