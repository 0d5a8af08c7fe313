import AlmanacCore

/// The delimited formats (`csv`, RFC 4180; `tsv`): a header, even over no rows, then one line
/// per row, with the separator and quoting of the format's row. Records whose columns were not
/// chosen are written whole: every key of the source, a nested object as dotted columns, lists
/// as compact JSON in their cell.
final class DelimitedRows: RowRenderer {
    private let format: OutputFormat
    private let sink: any LineSink
    /// The keys of whole records, read from the first rows.
    private var keys: SourceKeys?

    init(format: OutputFormat, sink: any LineSink) {
        self.format = format
        self.sink = sink
    }

    func header(_ table: ResultTable, rows: Range<Int>) {
        let dataset = table.isSectioned ? ["dataset"] : []
        if let records = table.records, !table.columnsChosen {
            let keys = SourceKeys(records, rows: rows)
            self.keys = keys
            write(dataset + keys.names + ComputedFields.names(records))
        } else {
            write(dataset + table.columns.map(\.name))
        }
    }

    func row(_ table: ResultTable, _ row: Int) {
        let section = table.section(of: row).map { [$0] } ?? []
        if let keys, let records = table.records {
            write(section + (keys.values(of: records.record(row)) + ComputedFields.cells(records, row: row)).map(ResultText.plain))
        } else {
            write(section + table.row(row).map(ResultText.plain))
        }
    }

    func footer() {}

    private func write(_ cells: [String]) {
        sink.line(cells.map { Self.cell($0, quoting: format.quoting, separator: format.separator) }.joined(separator: format.separator))
    }

    /// A cell as the format quotes it: RFC 4180's double quotes, or backslash escapes.
    static func cell(_ text: String, quoting: OutputFormat.Quoting, separator: String) -> String {
        switch quoting {
        case .backslashes:
            guard text.unicodeScalars.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\\" })
                || (separator != "\t" && contains(text, separator)) else { return text }
            var escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
            if separator != "\t" { escaped = escaped.replacingOccurrences(of: separator, with: "\\" + separator) }
            return escaped
        case .doubleQuotes:
            guard text.unicodeScalars.contains(where: { $0 == "\"" || $0 == "\n" || $0 == "\r" }) || contains(text, separator) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }
}

extension DelimitedRows {
    /// Whether `text` holds the separator, byte for byte: Foundation's `contains` folds and
    /// searches through CoreFoundation, a third of a 400,000-row CSV export's time.
    static func contains(_ text: String, _ separator: String) -> Bool {
        guard !separator.isEmpty else { return false }
        var text = text
        var separator = separator
        return text.withUTF8 { text in separator.withUTF8 { ByteSearch.contains(text, $0) } }
    }
}

/// The columns of whole records, in first-seen order: each top-level key, and a nested object
/// by its members' dotted paths (`user.login`, as a CSV loads back into objects); lists and
/// empty objects stay one cell. Each record's values under them, its keys prepared once per
/// dataset, so a lookup compares node words, not strings.
struct SourceKeys {
    let names: [String]
    private let paths: [[String]]
    private var prepared: [ObjectIdentifier: [[JSONDocument.Key]]] = [:]

    init(_ records: RecordRows, rows: Range<Int>) {
        // Paths by their first key, in first-seen order, each beside the columns of its object
        // (`milestone.due_on` after `milestone.title`). Kept as groups rather than placed by a
        // search of every path so far, which made a 40,000-column file's export quadratic.
        var groups: [[[String]]] = []
        var groupOfKey: [String: Int] = [:]
        var seen = Set<[String]>()
        // Paths where some record has a value that is no object (not null either).
        var valued = Set<[String]>()
        func add(_ document: JSONDocument, _ object: Int, under prefix: [String]) {
            for member in document.members(of: object) {
                let path = prefix + [document.string(at: member.key)]
                let kind = document.kind(at: member.value)
                if kind == .object, document.count(at: member.value) > 0 {
                    add(document, member.value, under: path)
                    continue
                }
                if kind != .null { valued.insert(path) }
                guard seen.insert(path).inserted else { continue }
                if let group = groupOfKey[path[0]] {
                    groups[group].append(path)
                } else {
                    groupOfKey[path[0]] = groups.count
                    groups.append([path])
                }
            }
        }
        for row in rows {
            let record = records.record(row)
            add(record.document, record.index, under: [])
        }
        // No rows: the header of the datasets' first records, so an empty result still says its columns.
        if rows.isEmpty {
            for dataset in records.results.datasets where dataset.count > 0 {
                let record = dataset.record(0)
                add(record.document, record.index, under: [])
            }
        }
        // A key that is an object in some records and null in others is its members' columns;
        // one with other values too keeps its own column for those.
        var paths = groups.flatMap { $0 }
        var objectPaths = Set<[String]>()
        for path in paths where path.count > 1 {
            for length in 1..<path.count { objectPaths.insert(Array(path.prefix(length))) }
        }
        paths.removeAll { !valued.contains($0) && objectPaths.contains($0) }
        self.paths = paths
        self.names = paths.map { $0.joined(separator: ".") }
        for dataset in records.results.datasets {
            prepared[ObjectIdentifier(dataset.document)] = paths.map { $0.map { dataset.document.key($0) } }
        }
    }

    func values(of record: JSONValue) -> [ResultValue] {
        let document = record.document
        let keys = prepared[ObjectIdentifier(document)] ?? paths.map { $0.map { document.key($0) } }
        // Records mostly hold their keys in the columns' order: a column's key is first looked
        // for where the last one found ended, then in the whole object (a search per column
        // made a 40,000-column export quadratic).
        let isObject = document.kind(at: record.index) == .object
        let objectEnd = isObject ? document.end(of: record.index) : 0
        var next = isObject ? record.index + 2 : 0
        return keys.map { path in
            var node = record.index
            for (depth, key) in path.enumerated() {
                if depth == 0, next < objectEnd, case let .interned(word) = key, document.node(next) == word {
                    node = next + 1
                    next = document.end(of: node)
                    continue
                }
                guard let member = document.member(key, of: node) else { return .absent }
                node = member
                if depth == 0 { next = document.end(of: member) }
            }
            // An object here is in its members' columns.
            return document.kind(at: node) == .object && document.count(at: node) > 0 ? .absent : .source(document.value(at: node))
        }
    }
}

/// The `markdown` format: a GitHub table (a record or a single value as field | value rows),
/// for pasting into documents; never cut, no colour.
final class MarkdownRows: RowRenderer {
    private let sink: any LineSink

    init(sink: any LineSink) { self.sink = sink }

    func header(_ table: ResultTable, rows: Range<Int>) {
        let names = (table.isSectioned ? ["dataset"] : []) + table.columns.map(\.name)
        let rules = (table.isSectioned ? ["---"] : []) + table.columns.map { $0.isNumeric ? "---:" : "---" }
        sink.line("| " + names.map(Self.cell).joined(separator: " | ") + " |")
        sink.line("| " + rules.joined(separator: " | ") + " |")
    }

    func row(_ table: ResultTable, _ row: Int) {
        let texts = (table.section(of: row).map { [$0] } ?? []) + zip(table.row(row), table.columns).map { ResultText.people($0, in: $1) }
        sink.line("| " + texts.map(Self.cell).joined(separator: " | ") + " |")
    }

    func footer() {}

    /// One thing (a record, a count): a field | value line per field.
    static func object(_ table: ResultTable, to sink: any LineSink) {
        sink.line("| field | value |")
        sink.line("| --- | --- |")
        guard !table.isEmpty else { return }
        if let records = table.records, !table.columnsChosen {
            for member in records.record(0).members {
                sink.line("| \(cell(member.key)) | \(cell(ResultText.people(.source(member.value), in: ResultColumn(member.key, .field)))) |")
            }
        } else {
            for (column, value) in zip(table.columns, table.row(0)) {
                sink.line("| \(cell(column.name)) | \(cell(ResultText.people(value, in: column))) |")
            }
        }
    }

    /// Pipes escaped, line breaks as `<br>`, control characters shown, not sent.
    static func cell(_ text: String) -> String {
        SafeText.escape(text.replacingOccurrences(of: "\r\n", with: "<br>").replacingOccurrences(of: "\n", with: "<br>"))
            .replacingOccurrences(of: "|", with: "\\|")
    }
}
