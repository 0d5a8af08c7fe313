import AlmanacCore

/// A result set printed for people (a table, one page at a time on a terminal, with a footer)
/// or for programs (the whole set in a machine format).
enum Listing {
    /// Rows per page: the setting, else the terminal's height, else everything.
    static func pageSize(in session: Session) -> Int? {
        if let size = session.settings.pageSize { return size }
        guard session.output.terminal.isTerminal, !session.settings.format.isMachineReadable else { return nil }
        return max(5, session.output.terminal.rows - 5)
    }

    static func pageCount(_ results: ResultSet, in session: Session) -> Int {
        guard let size = pageSize(in: session) else { return 1 }
        return max(1, (results.count + size - 1) / size)
    }

    static func print(_ results: ResultSet, page: Int, in session: Session) {
        let output = session.output
        let size = pageSize(in: session) ?? max(1, results.count)
        let start = min(results.count, (page - 1) * size)
        let end = min(results.count, start + size)
        let items = results.items[start..<end]
        let format = session.settings.format
        if format.isMachineReadable {
            let text = RecordWriter.render(results, items: items, format: format)
            if !text.isEmpty { output.print(text) }
            return
        }
        guard !results.isEmpty else {
            output.print("no records")
            return
        }
        output.print(table(results, items: items, firstNumber: start + 1).render(
            width: output.terminal.isTerminal ? output.terminal.columns : nil, color: session.usesColor))
        if output.terminal.isTerminal || session.settings.pageSize != nil {
            let pages = max(1, (results.count + size - 1) / size)
            let footer = "rows \((start + 1).grouped)–\(end.grouped) of \(results.count.grouped) · page \(page)/\(pages)"
            output.print(session.usesColor ? "\u{1B}[2m" + footer + "\u{1B}[0m" : footer)
        }
    }

    /// The `#` column, a dataset column under `use all`, then the dataset's listing fields.
    static func table(_ results: ResultSet, items: ArraySlice<ResultSet.Item>, firstNumber: Int) -> Table {
        if results.spansDatasets {
            let rows = items.enumerated().map { offset, item -> [String] in
                let dataset = results.dataset(of: item)
                return [String(firstNumber + offset), dataset.name, dataset.name(of: item.row)]
            }
            return Table(columns: [.init("#", alignRight: true), .init("dataset"), .init("name")], rows: rows)
        }
        let dataset = results.datasets[0]
        let fields = dataset.layout.listFields
        let paths = fields.map { dataset.compile(FieldPath($0)) }
        var numeric = [Bool](repeating: true, count: fields.count)
        let rows = items.enumerated().map { offset, item -> [String] in
            var row = [String(firstNumber + offset)]
            for (index, path) in paths.enumerated() {
                // Read by the one rule for values (ValueText): absent values leave the cell empty.
                var texts: [String] = []
                dataset.forEachValue(of: path, row: item.row) { value in
                    guard let text = dataset.displayText(of: value, in: path.path) else { return }
                    if dataset.number(of: value) == nil { numeric[index] = false }
                    texts.append(text)
                }
                if texts.count > 1 { numeric[index] = false }
                row.append(texts.joined(separator: ", "))
            }
            return row
        }
        let columns = [Table.Column("#", alignRight: true)] + fields.enumerated().map { Table.Column($0.element, alignRight: numeric[$0.offset]) }
        return Table(columns: columns, rows: rows)
    }
}
