import AlmanacCore
import Foundation

/// `describe [FIELD…]`: a profile of each field of the current results.
public enum DescribeCommand: Command {
    static let fields = Parameter.field(.optionalList(suffixes: []))

    public static let spec = CommandSpec(
        name: "describe",
        summary: "Profile the fields of the results: types, counts, ranges, common values",
        parameters: [fields],
        examples: ["describe", "describe population, area", "describe average_lifespan", "describe created", "describe population / area"],
        discussion: """
        For each field: its type (as fields says it: number (as text) for numbers written as text, \
        date for ISO 8601 dates), how many records have a value and how many have none (missing, \
        null, empty, n/a, unknown, none), how many distinct values; for numbers and dates the \
        minimum, maximum, mean, quartiles (q1, median, q3) and the distribution, drawn as a sparkline \
        of twelve bins (histogram FIELD 12 counts the same; programs get the counts); for text the \
        five most common values \
        with their counts. Numbers are never cut: a profile too wide for the terminal is shown one \
        field at a time. Galactic years (19BBY) are signed years, their statistics written as such (896BBY). Without FIELD, every field. set expanded auto shows a wide profile one \
        field at a time. A FIELD may be an expression (describe population / area): help expressions.
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let names = ExpressionWords.names(in: session)
        var fields: [String]
        if ExpressionWords.areComputed(arguments.words) {
            let items = try ExpressionWords.items(arguments)
            try ExpressionWords.check(items.map(\.expression), names: names, in: session, words: arguments.words)
            fields = items.map { ExpressionWords.resolving($0, names: names) }
        } else {
            fields = try arguments.parse()[Self.fields].map { names[$0.text]?.spec ?? $0.text }
        }
        let answer = try session.results().describe(fields, cancellation: session.cancellation)
        // Calendar parts (year(closed)) read as digits, as a field named year does.
        let digits = Set(fields.filter { !ComputedField.groupsThousands($0) }.map { ComputedField.title(of: $0) })
        let described = result(answer.profiles, datasets: answer.sections, digits: digits)
        session.lastSummary = ShownSummary(described.table, rows: "field")
        return described
    }

    /// One row per profile; sectioned by dataset when `datasets` names more than one. The
    /// fields named in `digits`, and those whose names say years or ids, read ungrouped.
    static func result(_ profiles: [(dataset: String, profile: FieldProfile)], datasets names: [String],
                       digits: Set<String> = []) -> CommandResult {
        let declared = [ResultColumn("field"), ResultColumn("type"), ResultColumn("present", .integer), ResultColumn("absent", .integer),
                       ResultColumn("distinct", .integer), ResultColumn("min", .field), ResultColumn("max", .field),
                       ResultColumn("mean", .field), ResultColumn("q1", .field), ResultColumn("median", .field),
                       ResultColumn("q3", .field), ResultColumn("distribution", .list), ResultColumn("common", .list)]
        // Numbers are never cut: a profile too wide for the terminal is shown a field at a time.
        let columns = declared.map { column in
            var column = column
            if column.isNumeric || column.kind == .field { column.fitting = .whole }
            return column
        }
        var table = ResultTable(columns: columns, count: profiles.count) { index in
            let profile = profiles[index].profile
            func statistic(_ value: Double?, exactly: String? = nil) -> ResultValue {
                if let exactly { return .literal(exactly) }
                guard let value else { return .absent }
                if profile.isDate { return .date(Date(timeIntervalSince1970: value)) }
                // Galactic years as the data writes them (896BBY), machine formats too.
                if abs(value) < 1e15, let year = profile.notation.text((value * 1000).rounded() / 1000) { return .text(year) }
                if value == value.rounded() && abs(value) < 1e15 { return .integer(Int(value)) }
                // Three decimals, unless scaling by 1,000 would overflow (±1e308) or leave 0 of a
                // nonzero number (1e-320): then three significant digits.
                guard abs(value) < 1e15 else { return .decimal(value) }
                let rounded = (value * 1000).rounded() / 1000
                return .decimal(rounded != 0 ? rounded : Double(String(format: "%.3g", value)) ?? value)
            }
            let quartiles = profile.quartiles ?? []
            return [.text(profile.field), .text(profile.type), .integer(profile.present), .integer(profile.absent), .integer(profile.distinct),
                    statistic(profile.minimum, exactly: profile.exactMinimum), statistic(profile.maximum, exactly: profile.exactMaximum),
                    statistic(profile.mean),
                    statistic(quartiles.first), statistic(quartiles.count > 1 ? quartiles[1] : nil), statistic(quartiles.last),
                    profile.distribution.map { .list($0.map { .integer($0) }) } ?? .absent,
                    profile.common.isEmpty ? .absent
                        : .list(profile.common.map { .record([("value", .text($0.value)), ("count", .integer($0.count))]) })]
        }
        if names.count > 1 {
            table.sections = Sections(names: names) { index in names.firstIndex(of: profiles[index].dataset) ?? 0 }
        }
        // People see the distribution as a sparkline (▁▂▃▄▅▆▇█); programs get the bins' counts.
        let place = columns.firstIndex { $0.name == "distribution" }!
        var drawnColumns = columns
        drawnColumns[place] = ResultColumn("distribution")
        let numbers = table
        var drawn = ResultTable(columns: drawnColumns, count: numbers.count) { index in
            var row = numbers.row(index)
            let profile = profiles[index].profile
            row[place] = profile.distribution.map { .text(Bars.sparkline($0)) } ?? .absent
            // Years and ids read as their digits (1890, not 1,890), as their field reads elsewhere.
            if !ValueText.groupsThousands(profile.field) || digits.contains(profile.field) {
                for column in row.indices where column != place {
                    if case let .integer(number) = row[column], column >= 5 { row[column] = .text(String(number)) }
                    if case let .literal(digits) = row[column] { row[column] = .text(digits) }
                    if case let .decimal(number) = row[column] { row[column] = .text(NumberFormat.plain(number)) }
                }
            }
            return row
        }
        drawn.sections = table.sections
        // NaN and ±infinity are values too: said apart, never folded into the statistics.
        let notes = profiles.compactMap { entry -> String? in
            let count = entry.profile.nonFinite
            guard count > 0 else { return nil }
            let what = entry.profile.isDate ? (count == 1 ? "date is" : "dates are") + " ±infinity"
                : (count == 1 ? "value is" : "values are") + " NaN, ±infinity or beyond ±1.8e308"
            return "\(entry.profile.field): \(count) \(what), left out of min, max, mean and quartiles"
        }
        return CommandResult(table, prose: .table(drawn), notes: notes, emptyNote: "no fields to describe")
    }
}
