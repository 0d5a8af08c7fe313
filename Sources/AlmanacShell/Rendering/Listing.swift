import AlmanacCore

/// The current results as a command's answer: one page of them for people (with a footer on a
/// terminal), all of them for programs — or, where the records live in a database, at most
/// the source's unpaged limit, and a line on standard error saying so.
enum Listing {
    /// Rows per page: the setting, else the terminal's height; nil: no pages.
    static func pageSize(in session: Session) -> Int? {
        if let size = session.settings.pageSize { return size }
        guard session.output.terminal.isTerminal, !session.settings.format.isMachineReadable else { return nil }
        return max(5, session.output.terminal.rows - 5)
    }

    /// Rows per page for `source`: without pages, everything (or its unpaged limit).
    static func pageSize(of source: any ResultsSource, total: Int, in session: Session) -> Int {
        pageSize(in: session) ?? source.unpagedLimit ?? max(1, total)
    }

    static func pageCount(_ source: inout any ResultsSource, in session: Session) throws -> Int {
        let total = try source.count(fresh: false, cancellation: session.cancellation)
        let size = pageSize(of: source, total: total, in: session)
        return max(1, (total + size - 1) / size)
    }

    static func result(_ source: inout any ResultsSource, page: Int, in session: Session) throws -> CommandResult {
        let total = try source.count(fresh: false, cancellation: session.cancellation)
        let size = pageSize(of: source, total: total, in: session)
        let start = min(total, (page - 1) * size)
        if let name = source.datasetNames.first { source.showing((session.chosenColumns[name] ?? []) + source.fieldsInUse) }
        let fetched = try source.page(start: start, size: size, cancellation: session.cancellation)
        let (fields, chosen) = session.listingFields(for: fetched, of: source)
        var table = RecordListing.table(fetched.results, range: fetched.range, fields: fields, chosen: chosen)
        table.firstNumber = start + 1
        table.cutLast(source.sortFields)
        let end = start + fetched.range.count
        let paged = session.output.terminal.isTerminal || session.settings.pageSize != nil
        let pages = max(1, (total + size - 1) / size)
        let footer = "rows \((start + 1).grouped)–\(end.grouped) of \(total.grouped) · page \(page)/\(pages.grouped)"
        var result = CommandResult(table, emptyNote: "no records")
        // `[{}, {}]`: rows of nothing but their number would look like a rendering fault.
        if end > start, table.columns.isEmpty { result.notes.append("\(total == 1 ? "the record has" : "the records have") no fields") }
        if total > 0, paged {
            result.notes.append(footer)
        } else if end < total || start > 0 {
            // Said on standard error, so a program reading the rows is not misled by silence.
            result.writtenNote = "\(footer) — 'page next' shows more, 'export FILE' writes them all"
        }
        return result
    }
}
