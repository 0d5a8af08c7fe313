import AlmanacCore

/// `fields`: each field's type, how many records have it, and an example; then which field
/// names the records and which others search and `show` look at.
public enum FieldsCommand: Command {
    public static let spec = CommandSpec(
        name: "fields",
        summary: "List the fields: type, count, an example; which one names records",
        parameters: [],
        examples: ["fields"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        if let table = session.tableInUse() { return try TableFields.result(table, in: session) }
        let datasets = try session.datasetsInScope()
        var rows: [[ResultValue]] = []
        var sections: [Int] = []
        var derived = false
        for (index, dataset) in datasets.enumerated() {
            for field in try dataset.fields(cancellation: session.cancellation).fields {
                rows.append([.text(field.path), .text(field.typeDescription), .integer(field.count),
                             field.example.map { .text($0) } ?? .absent, .boolean(field.isDerived)])
                sections.append(index)
                derived = derived || field.isDerived
            }
        }
        var table = ResultTable(columns: [ResultColumn("field"), ResultColumn("type"), ResultColumn("records", .integer),
                                          ResultColumn("example"), ResultColumn("computed", .boolean)], rows: rows)
        if datasets.count > 1 {
            let sectionOfRow = sections
            table.sections = Sections(names: datasets.map(\.name)) { sectionOfRow[$0] }
        }
        var notes = datasets.map { (datasets.count > 1 ? "\($0.name): " : "") + nameNote($0.layout) }
        if derived { notes.append("computed: made by almanac from the source fields") }
        return CommandResult(table, notes: notes)
    }

    /// `names the records: quote; search and show also look at author`.
    static func nameNote(_ layout: Layout) -> String {
        let others = layout.otherNameFields.isEmpty ? "" : "; search and show also look at \(layout.otherNameFields.joined(separator: ", "))"
        return SafeText.escape("names the records: \(layout.nameField)\(others)")
    }
}
