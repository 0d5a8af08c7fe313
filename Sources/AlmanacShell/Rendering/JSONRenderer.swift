import Foundation
import AlmanacCore

/// The `json` format: exactly one document per command. Rows are an array (records as their
/// source objects, other rows as objects keyed by column); rows spanning datasets are one
/// object keyed by dataset name; a single thing (a record, a count) is one object.
enum JSONRenderer: ResultRenderer {
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext) {
        let table = result.table
        if let document = result.document {
            sink.line(document.whole())
            return
        }
        if result.shape == .object {
            sink.line(table.isEmpty ? "{}" : JSONRow.object(table, row: 0, indent: 0, pretty: true))
            return
        }
        guard let sections = table.sections else {
            let rows = JSONRows(sink: sink)
            rows.header(table, rows: 0..<table.count)
            for row in 0..<table.count where !sink.isCut { rows.row(table, row) }
            rows.footer()
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
            let rows = JSONRows(sink: sink, indent: 1, prefix: key, suffix: index == sections.names.count - 1 ? "" : ",")
            rows.header(table, rows: 0..<0)
            for row in rowsBySection[index] where !sink.isCut { rows.row(table, row) }
            rows.footer()
        }
        sink.line("}")
    }
}

/// A JSON array written a row at a time: `[`, one row per line (a record over several), each
/// but the last with its comma, `]`; `[]` when there are none.
final class JSONRows: RowRenderer {
    private let sink: any LineSink
    private let indent: Int
    private let prefix: String
    private let suffix: String
    /// The row before, written once it is known whether another follows (then with a comma).
    private var held: String?

    init(sink: any LineSink, indent: Int = 0, prefix: String = "", suffix: String = "") {
        self.sink = sink
        self.indent = indent
        self.prefix = prefix
        self.suffix = suffix
    }

    func header(_ table: ResultTable, rows: Range<Int>) {}

    func row(_ table: ResultTable, _ row: Int) {
        if let held {
            sink.line(held + ",")
        } else {
            sink.line(prefix + "[")
        }
        held = String(repeating: "  ", count: indent + 1) + JSONRow.object(table, row: row, indent: indent + 1, pretty: true)
    }

    func footer() {
        guard let held else {
            sink.line(prefix + "[]" + suffix)
            return
        }
        sink.line(held)
        sink.line(String(repeating: "  ", count: indent) + "]" + suffix)
    }
}

/// The `ndjson` format: one JSON object per line, per row.
final class NDJSONRows: RowRenderer {
    private let sink: any LineSink

    init(sink: any LineSink) { self.sink = sink }

    func header(_ table: ResultTable, rows: Range<Int>) {}
    func row(_ table: ResultTable, _ row: Int) { sink.line(JSONRow.object(table, row: row, indent: 0, pretty: false)) }
    func footer() {}
}

/// A row as a JSON object: a record's source object (pretty when asked) unless its columns were
/// chosen, else the columns and their values on one line.
enum JSONRow {
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
