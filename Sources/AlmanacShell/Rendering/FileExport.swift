import AlmanacCore

/// `export FILE`: the current results, whole records, in the format of the file's extension,
/// read a batch at a time (a table's through a cursor) and written by the format's renderer,
/// the batches joined as one document (one header, one JSON array), atomically.
enum FileExport {
    /// Returns the records written.
    static func write(_ source: any ResultsSource, format: OutputFormat, to path: String, force: Bool, in session: Session) throws -> Int {
        var total = 0
        try AtomicFile.write(to: path, overwrite: force, cancellation: session.cancellation) { append in
            var joiner = BatchJoiner(format: format)
            try source.forEachBatch(cancellation: session.cancellation) { batch in
                try session.cancellation.checkpoint()
                let sink = CallSink()
                var table = RecordListing.table(batch, range: 0..<batch.count, fields: [])
                table.firstNumber = nil
                format.renderer.render(CommandResult(table), to: sink, context: .file(format))
                try append(joiner.add(sink.calls))
                total += batch.count
            }
            try append(joiner.finish(header: source.recordKeys ?? []))
        }
        return total
    }
}

/// What a renderer wrote, one entry per call (a pretty JSON record is one call over several lines).
private final class CallSink: LineSink {
    var calls: [String] = []
    /// A batch is rendered whole; the cursor and the file check the cancellation between batches.
    var isCut: Bool { false }
    func line(_ text: String) { calls.append(text) }
}

/// Joins the renderings of consecutive batches into one document.
private struct BatchJoiner {
    let format: OutputFormat
    private var batches = 0
    /// JSON: the last row of the batch before, written once it is known whether another follows.
    private var heldRow: String?

    init(format: OutputFormat) { self.format = format }

    /// The bytes to write for one batch's calls.
    mutating func add(_ calls: [String]) -> [UInt8] {
        defer { batches += 1 }
        var lines: [String]
        switch format.name {
        case "json":
            // `[`, rows (each but the last with its comma), `]`.
            var rows = Array(calls.dropFirst().dropLast())
            guard !rows.isEmpty else { return [] }
            lines = batches == 0 ? ["["] : []
            if let held = heldRow { lines.append(held + ",") }
            heldRow = rows.removeLast()
            lines += rows
        case "csv", "tsv":
            lines = batches == 0 ? calls : Array(calls.dropFirst())
        case "markdown":
            lines = batches == 0 ? calls : Array(calls.dropFirst(2))
        default:
            lines = calls
        }
        return bytes(lines)
    }

    /// What ends the document; with no rows at all, what an empty export holds.
    mutating func finish(header: [String]) -> [UInt8] {
        switch format.name {
        case "json":
            guard let held = heldRow else { return bytes(["[]"]) }
            return bytes([held, "]"])
        case "csv", "tsv":
            return batches == 0 ? bytes([header.map { DelimitedRenderer.cell($0, tab: format.name == "tsv") }.joined(separator: format.name == "tsv" ? "\t" : ",")]) : []
        default:
            return []
        }
    }

    private func bytes(_ lines: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in lines {
            bytes += line.utf8
            bytes.append(0x0A)
        }
        return bytes
    }
}
