import AlmanacCore

/// A `RecordDetail` as text: the title, then each section's heading and its labelled values,
/// labels aligned, long values wrapped to the terminal.
enum DetailRenderer {
    static func render(_ detail: RecordDetail, width: Int?, color: Bool) -> String {
        let bold = color ? "\u{1B}[1m" : ""
        let dim = color ? "\u{1B}[36m" : ""
        let reset = color ? "\u{1B}[0m" : ""
        var lines: [String] = [bold + CellText.prepare(detail.title) + reset]
        let labelWidth = detail.sections.flatMap { $0.rows.map { TextWidth.of($0.label) } }.max() ?? 0
        for section in detail.sections {
            lines.append("")
            lines.append("  " + dim + CellText.prepare(section.title) + reset)
            if let paragraph = section.paragraph {
                lines += wrap(CellText.prepare(paragraph), width: width.map { $0 - 4 }).map { "    " + $0 }
            }
            for row in section.rows {
                let label = TextWidth.pad(CellText.prepare(row.label), to: labelWidth)
                let indent = 4 + labelWidth + 2
                let wrapped = wrap(CellText.prepare(row.value), width: width.map { $0 - indent })
                for (index, part) in wrapped.enumerated() {
                    lines.append((index == 0 ? "    " + label + "  " : String(repeating: " ", count: indent)) + part)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Words wrapped to `width` cells (nil: one line).
    static func wrap(_ text: String, width: Int?) -> [String] {
        guard let width, width > 10, TextWidth.of(text) > width else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if TextWidth.of(candidate) > width, !current.isEmpty {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
