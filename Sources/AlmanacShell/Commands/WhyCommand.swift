import AlmanacCore

/// `why #N`: which conditions of the filters in force record N of the results meets, each with
/// the record's values (for a list, which elements matched). Given an id or a name, the record
/// may be one the filters left out: then it says which condition it fails.
public enum WhyCommand: Command {
    static let target = Parameter("#ROW|ID|NAME", .text(.recordName), .words)

    public static let spec = CommandSpec(
        name: "why",
        summary: "Show which conditions of the filter a record meets, with its values",
        parameters: [target],
        examples: ["filter region = Europe and languages.name = French; why #2", "why NOR"],
        discussion: """
        The conditions are those of every filter (and group drill-down) since the last search or \
        clear, split at their top-level and. Beside each, the record's value of each field it \
        compares; for a list, the elements that matched and how many it has. A record named by \
        its id or name may be one the filters left out: the conditions it fails are marked.
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let given = try arguments.parse()[target]
        let text = given.map(\.text).joined(separator: " ")
        let record: RecordTarget
        do {
            record = try RecordTarget.resolve(text, in: session)
        } catch let error as ShellError {
            guard case let .invalid(message) = error, !message.contains("\n") else { throw error }
            throw error.pointing(at: given.map(\.word))
        }
        let conditions = try session.results().conditions
        let label = SafeText.escape((text.hasPrefix("#") ? text.trimmingCharacters(in: .whitespaces) + " " : "")
                                    + record.dataset.name(of: record.row))
        let columns = [ResultColumn("condition"), ResultColumn("holds", .boolean), ResultColumn("values")]
        guard !conditions.isEmpty else {
            return CommandResult(ResultTable(columns: columns, rows: []),
                                 emptyNote: "no filter in force: every record of the results is there (filter narrows them)")
        }
        let checks = try ConditionCheck.check(conditions, on: record, cancellation: session.cancellation)
        let rows: [[ResultValue]] = checks.map { [.text($0.condition), .boolean($0.holds), .text($0.values.joined(separator: "; "))] }
        let met = checks.filter(\.holds).count
        let heading = met == checks.count
            ? "\(label) meets \(checks.count == 1 ? "the condition" : "all \(checks.count) conditions"):"
            : "\(label) meets \(met) of \(checks.count) conditions:"
        let width = checks.map { TextWidth.of($0.condition) }.max() ?? 0
        let lines = checks.map { check in
            let values = check.values.joined(separator: "; ")
            let condition = values.isEmpty ? check.condition : TextWidth.pad(check.condition, to: width, alignRight: false)
            return ("  " + (check.holds ? "✓ " : "✗ ") + SafeText.escape(condition) + (values.isEmpty ? "" : "   " + SafeText.escape(values)))
                .trailingSpacesRemoved
        }
        return CommandResult(ResultTable(columns: columns, rows: rows), prose: .lines([heading] + lines))
    }
}
