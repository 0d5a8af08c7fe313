import AlmanacCore

/// The `json` format: exactly one document per command. Rows are an array (records as their
/// source objects, other rows as objects keyed by column); rows spanning datasets are one
/// object keyed by dataset name; a single thing (a record, a count) is one object.
enum JSONRenderer: ResultRenderer {
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext) {
        let table = result.table
        if result.shape == .object {
            sink.line(table.isEmpty ? "{}" : JSONRows.object(table, row: 0, indent: 0, pretty: true))
            return
        }
        guard let sections = table.sections else {
            writeArray(table, rows: 0..<table.count, indent: 0, prefix: "", suffix: "", to: sink)
            return
        }
        // One array per section (dataset), in the sections' order, each keeping the rows' order.
        var rowsBySection = [[Int]](repeating: [], count: sections.names.count)
        for row in 0..<table.count { rowsBySection[sections.index(row)].append(row) }
        sink.line("{")
        for (index, name) in sections.names.enumerated() {
            var writer = JSONWriter()
            writer.writeString(name)
            let key = "  " + String(decoding: writer.bytes, as: UTF8.self) + ": "
            let last = index == sections.names.count - 1
            writeArray(table, rows: rowsBySection[index], indent: 1, prefix: key, suffix: last ? "" : ",", to: sink)
        }
        sink.line("}")
    }

    /// `[`, one row per line (a record over several), `]`; `prefix` before the opening bracket.
    private static func writeArray(_ table: ResultTable, rows: some Collection<Int>, indent: Int, prefix: String, suffix: String,
                                   to sink: any LineSink) {
        guard !rows.isEmpty else {
            sink.line(prefix + "[]" + suffix)
            return
        }
        sink.line(prefix + "[")
        let pad = String(repeating: "  ", count: indent + 1)
        for (position, row) in rows.enumerated() where !sink.isCut {
            let comma = position < rows.count - 1 ? "," : ""
            sink.line(pad + JSONRows.object(table, row: row, indent: indent + 1, pretty: true) + comma)
        }
        sink.line(String(repeating: "  ", count: indent) + "]" + suffix)
    }
}

/// The `ndjson` format: one JSON object per line, per row.
enum NDJSONRenderer: ResultRenderer {
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext) {
        for row in 0..<result.table.count where !sink.isCut {
            sink.line(JSONRows.object(result.table, row: row, indent: 0, pretty: false))
            if result.shape == .object { break }
        }
    }
}

/// A row as a JSON object: a record's source object (pretty when asked) unless its columns were
/// chosen, else the columns and their values on one line.
enum JSONRows {
    static func object(_ table: ResultTable, row: Int, indent: Int, pretty: Bool) -> String {
        if let records = table.records, !table.columnsChosen {
            let record = records.record(row)
            var writer = JSONWriter(pretty: pretty)
            writer.write(record.document, record.index, indent: indent)
            return ComputedFields.appended(to: String(decoding: writer.bytes, as: UTF8.self), records, row: row, indent: indent, pretty: pretty)
        }
        var compact = JSONWriter()
        compact.append("{")
        for (index, (column, value)) in zip(table.columns, table.row(row)).enumerated() {
            if index > 0 { compact.append(",") }
            compact.writeString(column.name)
            compact.append(":")
            ResultText.write(value, to: &compact)
        }
        compact.append("}")
        return String(decoding: compact.bytes, as: UTF8.self)
    }
}
