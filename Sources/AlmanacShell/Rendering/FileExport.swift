import AlmanacCore

/// `export FILE`: the current results, whole records, in the format of the file's extension,
/// read a batch at a time (a table's through a cursor) and written a row at a time by the
/// format's row renderer — one document, however many batches — atomically.
enum FileExport {
    /// Returns the records written.
    static func write(_ source: any ResultsSource, format: OutputFormat, to path: String, force: Bool, in session: Session) throws -> Int {
        var total = 0
        try AtomicFile.write(to: path, overwrite: force, cancellation: session.cancellation) { append in
            let sink = ByteSink(cancellation: session.cancellation)
            guard let renderer = format.rowRenderer(to: sink) else { return }
            var started = false
            var whole = false
            try source.forEachBatch(cancellation: session.cancellation) { batch in
                try session.cancellation.checkpoint()
                var table = RecordListing.table(batch, range: 0..<batch.count, fields: [])
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
                // No batch at all: the header names the source's keys.
                renderer.header(ResultTable(columns: (source.recordKeys ?? []).map { ResultColumn($0) }, rows: []), rows: 0..<0)
                renderer.footer()
            } else if !whole {
                renderer.footer()
            }
            try append(sink.take())
        }
        return total
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
