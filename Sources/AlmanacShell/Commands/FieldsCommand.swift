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
        let listing = try session.results().fields(cancellation: session.cancellation)
        // A table's fields are typed as memory types them; how the database stores them comes last.
        let stored = listing.rows.contains { $0.stored != nil }
        var table = ResultTable(columns: [ResultColumn("field"), ResultColumn("type"), ResultColumn("records", .integer),
                                          ResultColumn("example"), ResultColumn("computed", .boolean)] + (stored ? [ResultColumn("stored")] : []),
                                rows: listing.rows.map { field in
                                    [.text(field.path), .text(field.type), .integer(field.records),
                                     field.example.map { .text($0) } ?? .absent, .boolean(field.isDerived)]
                                        + (stored ? [field.stored.map { .text($0) } ?? .absent] : [])
                                })
        if listing.sections.count > 1 {
            let rows = listing.rows
            table.sections = Sections(names: listing.sections) { rows[$0].section }
        }
        return CommandResult(table, notes: listing.notes.map { SafeText.escape($0) })
    }
}
