import AlmanacCore

/// The `table` format: columns sized by display width, numbers right-aligned, long text cut
/// with `…` until the table fits the terminal (TableFitting; under `set expanded auto`, or when
/// a column that must stay whole cannot, one record per block instead); nothing is cut into a pipe.
enum TableRenderer: ResultRenderer {
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext) {
        if result.table.isEmpty, let note = result.emptyNote {
            // An empty note: the answer's messages say it (`no records — …` on standard error).
            if !note.isEmpty { sink.line(note) }
            return
        } else if let prose = result.prose {
            ProseRenderer.write(prose, to: sink, context: context)
        } else {
            let grid = TableGrid(result.table, context: context)
            if context.expanded == .on || (context.expanded == .auto && context.width.map { grid.naturalWidth > $0 } ?? false)
                || context.width.map({ !grid.keepsWholeColumns(in: $0) }) ?? false {
                ExpandedRenderer.writeRows(result.table, to: sink, context: context)
            } else {
                grid.write(to: sink, context: context)
            }
        }
        ProseRenderer.writeNotes(result.notes, to: sink, context: context)
    }
}

/// A table's cells as text for people, measured once: titles, widths and alignment.
struct TableGrid {
    let table: ResultTable
    let titles: [String]
    var widths: [Int]
    private(set) var alignRight: [Bool]
    /// The first text column of the result (a record's name, a field's path): what says which
    /// row is which, so it is narrowed after other text.
    var leading: Int?
    /// Each column's fitting (the row number and dataset columns are free).
    let fitting: [ResultColumn.Fitting]
    /// The cells' text when the table is small enough to keep (else they are made again to write).
    private var kept: [[String]]?
    private let limit: Int?

    static let separator = 2
    /// Tables up to this many rows keep their cells between measuring and writing.
    static let keptRows = 10_000

    init(_ table: ResultTable, context: RenderContext) {
        self.table = table
        limit = context.width
        var titles: [String] = []
        var numeric: [Bool] = []
        if table.firstNumber != nil { titles.append("#"); numeric.append(true) }
        if table.isSectioned { titles.append("dataset"); numeric.append(false) }
        let fixed = titles.count
        titles += table.columns.map(\.name)
        numeric += table.columns.map { $0.isNumeric || $0.kind == .field }
        self.titles = titles.map { CellText.prepare($0, limit: context.width) }
        widths = self.titles.map { TextWidth.of($0) }
        var kept: [[String]]? = table.count <= Self.keptRows ? [] : nil
        kept?.reserveCapacity(table.count)
        var sawNumber = [Bool](repeating: false, count: titles.count)
        for row in 0..<table.count {
            let values = table.row(row)
            for (index, value) in values.enumerated() where numeric[fixed + index] && table.columns[index].kind == .field {
                if ResultText.isNumber(value) { sawNumber[fixed + index] = true } else if !value.isAbsent { numeric[fixed + index] = false }
            }
            let texts = Self.texts(of: table, row: row, values: values, limit: context.width)
            for (index, text) in texts.enumerated() { widths[index] = max(widths[index], TextWidth.of(text)) }
            kept?.append(texts)
        }
        for index in fixed..<titles.count where table.columns[index - fixed].kind == .field && !sawNumber[index] {
            numeric[index] = false
        }
        alignRight = numeric
        leading = (fixed..<titles.count).first { !numeric[$0] }
        fitting = [ResultColumn.Fitting](repeating: .free, count: fixed) + table.columns.map(\.fitting)
        self.kept = kept
    }

    /// The row's cells as text: its number, its dataset, then its values.
    static func texts(of table: ResultTable, row: Int, values: [ResultValue], limit: Int?) -> [String] {
        var texts: [String] = []
        if let first = table.firstNumber { texts.append(String(first + row)) }
        if let section = table.section(of: row) { texts.append(CellText.prepare(section, limit: limit)) }
        for (index, value) in values.enumerated() {
            texts.append(CellText.prepare(ResultText.people(value, in: table.columns[index]), limit: limit))
        }
        return texts
    }

    var naturalWidth: Int { widths.reduce(0, +) + Self.separator * max(0, widths.count - 1) }

    func write(to sink: any LineSink, context: RenderContext) {
        var grid = self
        if let width = context.width { grid.fit(to: width) }
        let gap = String(repeating: " ", count: Self.separator)
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() where index < grid.widths.count {
                let cut = TextWidth.truncate(cell, to: grid.widths[index])
                parts.append(TextWidth.pad(cut, to: grid.widths[index], alignRight: grid.alignRight[index]))
            }
            var text = parts.joined(separator: gap).trailingSpacesRemoved
            // Still too wide (too many columns for the terminal): cut the line, never wrap it.
            if let width = context.width, TextWidth.of(text) > width { text = TextWidth.truncate(text, to: width) }
            return text
        }
        if table.showsHeader {
            let header = line(titles)
            sink.line(context.color ? "\u{1B}[1m" + header + "\u{1B}[0m" : header)
            var rule = grid.widths.map { String(repeating: "─", count: $0) }.joined(separator: gap)
            if let width = context.width, TextWidth.of(rule) > width { rule = String(repeating: "─", count: width) }
            sink.line(rule)
        }
        for row in 0..<table.count where !sink.isCut {
            sink.line(line(kept?[row] ?? Self.texts(of: table, row: row, values: table.row(row), limit: limit)))
        }
    }
}

/// Text from data made fit for one table cell or detail line.
enum CellText {
    /// Escapes control characters, and wraps right-to-left text in a first-strong isolate
    /// (U+2068 … U+2069) so the terminal's bidi reordering stays inside the cell. With a
    /// `limit` (a terminal's width), text far longer than it is cut first: a 2 MB value
    /// costs a line, not 2 MB.
    static func prepare(_ text: String, limit: Int? = nil) -> String {
        var text = text
        if let limit, text.utf8.count > limit * 4 + 8 {
            text = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit * 2 + 2)))
        }
        let safe = SafeText.escape(text)
        return safe.unicodeScalars.contains(where: isRightToLeft) ? "\u{2068}" + safe + "\u{2069}" : safe
    }

    static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}

extension String {
    var trailingSpacesRemoved: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
