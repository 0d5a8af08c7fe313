import AlmanacCore

/// A result set as a command's answer: one page of it for people (with a footer on a
/// terminal), the whole of it for programs.
enum Listing {
    /// Rows per page: the setting, else the terminal's height, else everything.
    static func pageSize(in session: Session) -> Int? {
        if let size = session.settings.pageSize { return size }
        guard session.output.terminal.isTerminal, !session.settings.format.isMachineReadable else { return nil }
        return max(5, session.output.terminal.rows - 5)
    }

    static func pageCount(_ results: ResultSet, in session: Session) -> Int {
        guard let size = pageSize(in: session) else { return 1 }
        return max(1, (results.count + size - 1) / size)
    }

    static func result(_ results: ResultSet, page: Int, in session: Session) -> CommandResult {
        let size = pageSize(in: session) ?? max(1, results.count)
        let start = min(results.count, (page - 1) * size)
        let end = min(results.count, start + size)
        let (fields, chosen) = session.listingFields(for: results)
        var table = RecordListing.table(results, range: start..<end, fields: fields, chosen: chosen)
        table.cutLast(session.query?.sortFields ?? [])
        var notes: [String] = []
        if !results.isEmpty, session.output.terminal.isTerminal || session.settings.pageSize != nil {
            let pages = max(1, (results.count + size - 1) / size)
            notes.append("rows \((start + 1).grouped)–\(end.grouped) of \(results.count.grouped) · page \(page)/\(pages)")
        }
        return CommandResult(table, notes: notes, emptyNote: "no records")
    }
}
