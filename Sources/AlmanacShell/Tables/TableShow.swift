import AlmanacCore
import AlmanacPostgres

/// `show`, `random` on an attached table: the row fetched by its place in the results, its
/// key, or its name, and shown in detail as any record is.
enum TableShow {
    static func result(_ text: String, _ results: TableResults, in session: Session) throws -> CommandResult {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let table = results.table
        if trimmed.hasPrefix("#"), let number = Int(trimmed.dropFirst()) {
            var results = results
            let total = try results.count(in: session)
            guard number >= 1, number <= total else {
                throw ShellError.invalid("there is no row #\(number): the results have \(total.grouped) row\(total == 1 ? "" : "s")")
            }
            session.tableResults = results
            return try row(at: number - 1, of: results, in: session)
        }
        // As many candidates as an ambiguous show lists (see RecordTarget.ambiguity).
        let room = session.isInteractive && session.output.errorIsTerminal ? max(3, session.output.terminal.rows - 4) : 10
        let found = try table.find(trimmed, limit: room, cancellation: session.cancellation)
        switch found.total {
        case 0:
            throw ShellError.invalid("nothing called '\(SafeText.escape(trimmed))' in \(table.name) — try search \(SafeText.escape(trimmed))")
        case 1:
            return RecordTarget.result(RecordTarget(dataset: found.rows, row: 0), in: session)
        default:
            let candidates = (0..<found.rows.count).map { RecordTarget(dataset: found.rows, row: $0) }
            // Each by its primary key, which `show` finds it by; without one, by its number in
            // the table, as a dataset in memory numbers its records.
            let key = table.schema.primaryKey.count == 1 ? table.schema.columns[table.schema.primaryKey[0]].name : nil
            let identity = { (target: RecordTarget) -> String? in
                if let key { return target.dataset.displayText(of: target.dataset.compile(FieldPath(key)), row: target.row) }
                return found.places.indices.contains(target.row) ? found.places[target.row].map { "#\($0)" } : nil
            }
            throw ShellError.invalid(RecordTarget.ambiguity(trimmed, candidates: candidates, total: found.total, identity: identity,
                                                            spansDatasets: false, in: session))
        }
    }

    /// The row at `offset` of the results, in detail.
    static func row(at offset: Int, of results: TableResults, in session: Session) throws -> CommandResult {
        let page = try results.table.page(results.query, offset: offset, limit: 1, cancellation: session.cancellation)
        guard page.count == 1 else { throw ShellError.invalid("the results changed: row #\(offset + 1) is gone") }
        return RecordTarget.result(RecordTarget(dataset: page.rows, row: 0), in: session)
    }

    /// `random`: a row at a random place in the results.
    static func random(_ results: TableResults, in session: Session) throws -> CommandResult {
        var results = results
        let total = try results.count(in: session)
        guard total > 0 else { throw ShellError.invalid("the results are empty") }
        session.tableResults = results
        return try row(at: Int.random(in: 0..<total), of: results, in: session)
    }
}
