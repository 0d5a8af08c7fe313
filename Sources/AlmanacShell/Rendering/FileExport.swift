import AlmanacCore

/// `export FILE`: the current results in the format of the file's extension — the columns the
/// listing shows when the user chose them, else whole records — read a batch at a time (a
/// table's through a cursor) and written a row at a time by the format's row renderer — one
/// document, however many batches — atomically.
enum FileExport {
    /// Returns the records written. `fields`: the columns to write (nil: whole records).
    static func write(_ source: any ResultsSource, fields: [String]? = nil, format: OutputFormat, to path: String, force: Bool,
                      in session: Session) throws -> Int {
        var total = 0
        try AtomicFile.write(to: path, overwrite: force, cancellation: session.cancellation) { append in
            let sink = ByteSink(cancellation: session.cancellation)
            guard let renderer = format.rowRenderer(to: sink) else { return }
            var started = false
            var whole = false
            try source.forEachBatch(cancellation: session.cancellation) { batch in
                try session.cancellation.checkpoint()
                var table = RecordListing.table(batch, range: 0..<batch.count, fields: fields ?? [], chosen: fields != nil)
                table.firstNumber = nil
                total += batch.count
                if table.isSectioned {
                    // Results across datasets are in memory, one batch: a document keyed by dataset.
                    format.renderer.render(CommandResult(table), to: sink, context: .file(format))
                    (started, whole) = (true, true)
                    return
                }
                if !started { renderer.header(table, rows: 0..<table.count) }
                started = true
                // In memory the results are one batch: Ctrl-C stops between rows, not at its end.
                for row in 0..<table.count {
                    if row & 0x3FF == 0 { try session.cancellation.checkpoint() }
                    renderer.row(table, row)
                }
                try append(sink.take())
            }
            if !started {
                // No batch at all: the header names the columns, or the source's keys.
                let names = fields.map { $0.map(ComputedField.title) } ?? source.recordKeys ?? []
                renderer.header(ResultTable(columns: names.map { ResultColumn($0) }, rows: []), rows: 0..<0)
                renderer.footer()
            } else if !whole {
                renderer.footer()
            }
            try append(sink.take())
        }
        return total
    }
}

extension FileExport {
    /// The groups as `group` listed them (counts, shares, aggregates; no bars).
    static func write(_ groups: GroupAnswer, format: OutputFormat, to path: String, force: Bool, in session: Session) throws -> Int {
        try write(GroupResult.table(groups.spec, count: groups.count, total: groups.total) { groups.row($0) },
                  format: format, to: path, force: force, in: session)
    }

    /// A command's table (a describe's, a histogram's), as programs get it: one document.
    static func write(_ table: ResultTable, format: OutputFormat, to path: String, force: Bool, in session: Session) throws -> Int {
        try AtomicFile.write(to: path, overwrite: force, cancellation: session.cancellation) { append in
            let sink = ByteSink(cancellation: session.cancellation)
            format.renderer.render(CommandResult(table), to: sink, context: .file(format))
            try session.cancellation.checkpoint()
            try append(sink.take())
        }
        return table.count
    }
}

/// Lines as the bytes of a file, taken a batch at a time.
private final class ByteSink: LineSink {
    private var bytes: [UInt8] = []
    private let cancellation: Cancellation

    init(cancellation: Cancellation) { self.cancellation = cancellation }

    /// A renderer writing a whole document (results across datasets) stops on Ctrl-C too.
    var isCut: Bool { cancellation.isCancelled }

    func line(_ text: String) {
        bytes += text.utf8
        bytes.append(0x0A)
    }

    func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
