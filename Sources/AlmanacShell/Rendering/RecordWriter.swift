import AlmanacCore

/// Records in a machine format, in the source schema (what the original API returned):
/// JSON (an array, or one object for `show`), NDJSON, CSV and TSV.
public enum RecordWriter {
    public static func render(_ results: ResultSet, items: some Collection<ResultSet.Item>, format: OutputFormat) -> String {
        switch format {
        case .json, .table:
            var writer = JSONWriter(pretty: true)
            writer.append("[")
            for (index, item) in items.enumerated() {
                writer.append(index == 0 ? "\n  " : ",\n  ")
                writer.write(results.dataset(of: item).document, results.dataset(of: item).records[item.row], indent: 1)
            }
            writer.append(items.isEmpty ? "]" : "\n]")
            return String(decoding: writer.bytes, as: UTF8.self)
        case .ndjson:
            return items.map { JSONWriter.string(results.dataset(of: $0).record($0.row)) }.joined(separator: "\n")
        case .csv, .tsv:
            return delimited(results, items: items, tab: format == .tsv)
        }
    }

    /// One record as a pretty JSON object.
    public static func object(_ record: JSONValue) -> String { JSONWriter.string(record, pretty: true) }

    /// A header of every top-level key (first-seen order), then one line per record; lists
    /// and objects as compact JSON in their cell.
    static func delimited(_ results: ResultSet, items: some Collection<ResultSet.Item>, tab: Bool) -> String {
        var keys: [String] = []
        var seen = Set<String>()
        for item in items {
            let record = results.dataset(of: item).record(item.row)
            for member in record.document.members(of: record.index) {
                let key = record.document.string(at: member.key)
                if seen.insert(key).inserted { keys.append(key) }
            }
        }
        var lines = [keys.map { cell($0, tab: tab) }.joined(separator: tab ? "\t" : ",")]
        for item in items {
            let record = results.dataset(of: item).record(item.row)
            let values = keys.map { key -> String in
                guard let value = record[key] else { return "" }
                switch value.kind {
                case .string, .number: return value.document.string(at: value.index)
                case .true: return "true"
                case .false: return "false"
                case .null: return ""
                case .array, .object: return JSONWriter.string(value)
                }
            }
            lines.append(values.map { cell($0, tab: tab) }.joined(separator: tab ? "\t" : ","))
        }
        return lines.joined(separator: "\n")
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

import Foundation
