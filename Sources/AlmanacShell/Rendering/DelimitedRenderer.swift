import AlmanacCore

/// The `csv` (RFC 4180) and `tsv` formats: a header, even over no rows, then one line per row.
/// Records whose columns were not chosen are written whole: every top-level key of the
/// source, lists and objects as compact JSON in their cell.
enum DelimitedRenderer: ResultRenderer {
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext) {
        let tab = context.format.name == "tsv"
        let separator = tab ? "\t" : ","
        let table = result.table
        let rows = result.shape == .object ? 0..<min(1, table.count) : 0..<table.count
        func write(_ cells: [String]) { sink.line(cells.map { cell($0, tab: tab) }.joined(separator: separator)) }
        let dataset = table.isSectioned ? ["dataset"] : []
        guard let records = table.records, !table.columnsChosen else {
            write(dataset + table.columns.map(\.name))
            for row in rows where !sink.isCut {
                write((table.section(of: row).map { [$0] } ?? []) + table.row(row).map(ResultText.plain))
            }
            return
        }
        let keys = SourceKeys(records, rows: rows)
        write(dataset + keys.names + ComputedFields.names(records))
        for row in rows where !sink.isCut {
            write((table.section(of: row).map { [$0] } ?? []) + (keys.values(of: records.record(row)) + ComputedFields.cells(records, row: row))
                .map(ResultText.plain))
        }
    }

    /// RFC 4180 quoting for CSV; backslash escapes for TSV.
    static func cell(_ text: String, tab: Bool) -> String {
        if tab {
            guard text.unicodeScalars.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\\" }) else { return text }
            return text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
        }
        guard text.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// The top-level keys of some records, in first-seen order, and each record's values under them
/// (keys prepared once per dataset, so a lookup compares node words, not strings).
struct SourceKeys {
    let names: [String]
    private var prepared: [ObjectIdentifier: [JSONDocument.Key]] = [:]

    init(_ records: RecordRows, rows: Range<Int>) {
        var names: [String] = []
        var seen = Set<String>()
        func add(_ record: JSONValue) {
            for member in record.document.members(of: record.index) {
                let key = record.document.string(at: member.key)
                if seen.insert(key).inserted { names.append(key) }
            }
        }
        for row in rows { add(records.record(row)) }
        // No rows: the header of the datasets' first records, so an empty result still says its columns.
        if rows.isEmpty {
            for dataset in records.results.datasets where dataset.count > 0 { add(dataset.record(0)) }
        }
        self.names = names
        for dataset in records.results.datasets {
            prepared[ObjectIdentifier(dataset.document)] = names.map { dataset.document.key($0) }
        }
    }

    func values(of record: JSONValue) -> [ResultValue] {
        let keys = prepared[ObjectIdentifier(record.document)] ?? names.map { record.document.key($0) }
        return keys.map { key in
            record.document.member(key, of: record.index).map { .source(record.document.value(at: $0)) } ?? .absent
        }
    }
}

/// The `markdown` format: a GitHub table (a record or a single value as field | value rows),
/// for pasting into documents; never cut, no colour.
enum MarkdownRenderer: ResultRenderer {
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext) {
        let table = result.table
        if result.shape == .object {
            sink.line("| field | value |")
            sink.line("| --- | --- |")
            guard !table.isEmpty else { return }
            if let records = table.records, !table.columnsChosen {
                let record = records.record(0)
                for member in record.members { sink.line("| \(cell(member.key)) | \(cell(ResultText.people(.source(member.value), in: ResultColumn(member.key, .field)))) |") }
            } else {
                for (column, value) in zip(table.columns, table.row(0)) {
                    sink.line("| \(cell(column.name)) | \(cell(ResultText.people(value, in: column))) |")
                }
            }
            return
        }
        let names = (table.isSectioned ? ["dataset"] : []) + table.columns.map(\.name)
        let rules = (table.isSectioned ? ["---"] : []) + table.columns.map { $0.isNumeric ? "---:" : "---" }
        sink.line("| " + names.map(cell).joined(separator: " | ") + " |")
        sink.line("| " + rules.joined(separator: " | ") + " |")
        for row in 0..<table.count where !sink.isCut {
            let texts = (table.section(of: row).map { [$0] } ?? [])
                + zip(table.row(row), table.columns).map { ResultText.people($0, in: $1) }
            sink.line("| " + texts.map(cell).joined(separator: " | ") + " |")
        }
    }

    /// Pipes escaped, line breaks as `<br>`, control characters shown, not sent.
    static func cell(_ text: String) -> String {
        SafeText.escape(text.replacingOccurrences(of: "\r\n", with: "<br>").replacingOccurrences(of: "\n", with: "<br>"))
            .replacingOccurrences(of: "|", with: "\\|")
    }
}

import Foundation
