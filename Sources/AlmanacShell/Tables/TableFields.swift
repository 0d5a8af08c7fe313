import AlmanacCore
import AlmanacPostgres

/// `fields` on an attached table: its columns as the database's catalog types them, how many
/// rows have each, an example; keys inside JSON columns as dotted paths.
enum TableFields {
    static func result(_ results: TableResults, in session: Session) throws -> CommandResult {
        let table = results.table
        let fields = try table.fields(cancellation: session.cancellation)
        let rows: [[ResultValue]] = fields.map { field in
            [.text(field.path), .text(field.type), .integer(field.count), field.example.map { .text($0) } ?? .absent, .boolean(false)]
        }
        let resultTable = ResultTable(columns: [ResultColumn("field"), ResultColumn("type"), ResultColumn("records", .integer),
                                                ResultColumn("example"), ResultColumn("computed", .boolean)], rows: rows)
        var notes = [FieldsCommand.nameNote(table.schema.layout)]
        if let key = keyNote(table.schema) { notes.append(key) }
        return CommandResult(resultTable, notes: notes)
    }

    /// `show finds a row by its primary key: id`.
    static func keyNote(_ schema: TableSchema) -> String? {
        guard !schema.primaryKey.isEmpty else { return nil }
        return SafeText.escape("show finds a row by its primary key: \(schema.primaryKey.map { schema.columns[$0].name }.joined(separator: ", "))")
    }
}
