import AlmanacCore

/// A programs' format written a row at a time, as DuckDB's shell's `RowRenderer`: the header
/// before the first row, each row as it comes, the footer after the last — so a result streams,
/// and an export of a table read in batches is one document.
protocol RowRenderer: AnyObject {
    /// Before the first row. `rows` of `table` are the first rows: a table of whole records reads
    /// the keys of its header from them.
    func header(_ table: ResultTable, rows: Range<Int>)
    func row(_ table: ResultTable, _ row: Int)
    func footer()
}

/// Whole results in a format whose rows stream (ndjson, csv, tsv, markdown): a single thing
/// (a record, a count) is its one row, and markdown writes it as field | value lines.
enum StreamedRenderer: ResultRenderer {
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext) {
        let table = result.table
        if let document = result.document, context.format.writer == .ndjson {
            for line in document.lines() where !sink.isCut { sink.line(line) }
            return
        }
        if result.shape == .object, context.format.writer == .markdown {
            MarkdownRows.object(table, to: sink)
            return
        }
        guard let renderer = context.format.rowRenderer(to: sink) else { return }
        let rows = result.shape == .object ? min(1, table.count) : table.count
        renderer.header(table, rows: 0..<rows)
        for row in 0..<rows where !sink.isCut { renderer.row(table, row) }
        renderer.footer()
    }
}
