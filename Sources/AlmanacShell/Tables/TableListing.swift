import AlmanacCore
import AlmanacPostgres

/// A page of an attached table's results as a command's answer: the database counts the rows
/// and sends the one page shown, nothing more.
enum TableListing {
    /// Into a pipe, where an in-memory listing has no pages, a table's listing stops here (and
    /// says so): its rows may be millions. `set pagesize` pages it; `export FILE` writes it all.
    static let unpagedLimit = 1000

    /// Rows per page: the setting, else the terminal's height, else `unpagedLimit`.
    static func pageSize(in session: Session) -> Int { Listing.pageSize(in: session) ?? unpagedLimit }

    static func pageCount(_ results: inout TableResults, in session: Session) throws -> Int {
        let size = pageSize(in: session)
        return max(1, (try results.count(in: session) + size - 1) / size)
    }

    /// Makes `results` the session's and answers with page `page` of them.
    static func show(_ results: TableResults, page: Int = 1, in session: Session) throws -> CommandResult {
        var results = results
        let size = pageSize(in: session)
        let total = try results.count(in: session)
        let start = min(total, (page - 1) * size)
        let after = results.shownPage.flatMap { $0.number == page - 1 && $0.size == size ? $0.lastKey : nil }
        let fetched = try results.table.page(results.query, offset: start, limit: size, after: after, cancellation: session.cancellation)
        results.shownPage = (page, size, fetched.lastKey)
        session.tableResults = results
        session.lastGroups = nil
        session.page = page
        let rows = fetched.rows
        // As in memory: the chosen columns (else the default ones), then the fields the sort,
        // filters and drill-downs use.
        let chosen = session.chosenColumns[results.table.name]
        var fields = chosen ?? rows.layout.listFields
        for field in results.query.fieldsInUse where !ComputedField.isAmong(fields, field) { fields.append(field) }
        var table = RecordListing.table(.all([rows]), range: 0..<rows.count, fields: fields, chosen: chosen != nil)
        table.firstNumber = start + 1
        var notes: [String] = []
        let end = start + rows.count
        let paged = session.output.terminal.isTerminal || session.settings.pageSize != nil
        let pages = max(1, (total + size - 1) / size)
        let footer = "rows \((start + 1).grouped)–\(end.grouped) of \(total.grouped) · page \(page)/\(pages.grouped)"
        if total > 0, paged {
            notes.append(footer)
        } else if end < total || start > 0 {
            // Said on standard error, so a program reading the rows is not misled by silence.
            session.output.message("\(footer) — 'page next' shows more, 'export FILE' writes them all")
        }
        return CommandResult(table, notes: notes, emptyNote: "no records")
    }
}
