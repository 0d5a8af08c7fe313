import AlmanacCore

/// The `expanded` format (and `set expanded on`): each row as a block, one line per column —
/// its name, then its value — like psql's `\x`. Values are cut to the terminal, never wrapped.
enum ExpandedRenderer: ResultRenderer {
    /// The table format's way, always expanded.
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext) {
        var context = context
        context.expanded = .on
        TableRenderer.render(result, to: sink, context: context)
    }

    static func writeRows(_ table: ResultTable, to sink: any LineSink, context: RenderContext) {
        var names = table.columns.map { CellText.prepare($0.name, limit: context.width) }
        if table.isSectioned { names.insert("dataset", at: 0) }
        let labelWidth = names.map { TextWidth.of($0) }.max() ?? 0
        let valueWidth = context.width.map { max(8, $0 - labelWidth - 2) }
        for row in 0..<table.count where !sink.isCut {
            let number = table.firstNumber.map { $0 + row } ?? row + 1
            let heading = "─[ \(number) ]" + String(repeating: "─", count: max(2, min(context.width ?? 40, 40) - 6 - String(number).count))
            sink.line(context.color ? "\u{1B}[2m" + heading + "\u{1B}[0m" : heading)
            var texts = zip(table.row(row), table.columns).map { value, column in
                ResultText.people(value, in: column)
            }
            if let section = table.section(of: row) { texts.insert(section, at: 0) }
            for (name, text) in zip(names, texts) {
                var value = CellText.prepare(text, limit: valueWidth)
                if let valueWidth { value = TextWidth.truncate(value, to: valueWidth) }
                sink.line((TextWidth.pad(name, to: labelWidth) + "  " + value).trailingSpacesRemoved)
            }
        }
    }
}

/// What people's formats show instead of a table (a record in detail, lines of text), and
/// the notes after a table.
enum ProseRenderer {
    static func write(_ prose: CommandResult.Prose, to sink: any LineSink, context: RenderContext) {
        switch prose {
        case let .detail(detail):
            sink.line(DetailRenderer.render(detail, width: context.width, color: context.color))
        case let .lines(lines):
            // Each line of a text fitted on its own: wrapped whole, its line breaks would be
            // taken for spaces.
            for text in lines {
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) { sink.line(Prose.fit(String(line), width: context.width)) }
            }
        case let .table(table):
            TableRenderer.render(CommandResult(table), to: sink, context: context)
        }
    }

    static func writeNotes(_ notes: [String], to sink: any LineSink, context: RenderContext) {
        for note in notes {
            for line in Prose.fit(note, width: context.width).split(separator: "\n", omittingEmptySubsequences: false) {
                sink.line(context.color ? "\u{1B}[2m" + line + "\u{1B}[0m" : String(line))
            }
        }
    }
}
