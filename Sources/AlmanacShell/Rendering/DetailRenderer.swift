import AlmanacCore

/// A `RecordDetail` as text: the title, then each section's heading and its labelled values,
/// labels aligned, long values wrapped to the terminal.
enum DetailRenderer {
    static func render(_ detail: RecordDetail, width: Int?, color: Bool) -> String {
        let bold = color ? "\u{1B}[1m" : ""
        let dim = color ? "\u{1B}[36m" : ""
        let reset = color ? "\u{1B}[0m" : ""
        var lines: [String] = [bold + CellText.prepare(detail.title) + reset]
        // A tree's rows are indented two columns a level; values line up after the widest label.
        func label(of row: RecordDetail.Row) -> String { String(repeating: "  ", count: row.depth) + CellText.prepare(row.label) }
        let labelWidth = detail.sections.flatMap { $0.rows.map { TextWidth.of(label(of: $0)) } }.max() ?? 0
        for section in detail.sections {
            lines.append("")
            lines.append("  " + dim + CellText.prepare(section.title) + reset)
            if let paragraph = section.paragraph {
                lines += Prose.wrap(CellText.prepare(paragraph), width: width, lead: "    ")
            }
            for row in section.rows {
                if row.opensGroup {
                    lines.append("    " + label(of: row))
                    continue
                }
                let label = TextWidth.pad(label(of: row), to: labelWidth)
                lines += Prose.wrap(CellText.prepare(row.value), width: width, lead: "    " + label + "  ")
            }
        }
        return lines.joined(separator: "\n")
    }
}
