/// A table for people: columns sized by display width (CJK two cells, combining marks none),
/// numbers right-aligned, cut with `…` to fit a terminal, right-to-left text isolated so it
/// cannot drag the columns after it.
public struct Table {
    public struct Column {
        public var title: String
        public var alignRight: Bool
        public init(_ title: String, alignRight: Bool = false) {
            self.title = title
            self.alignRight = alignRight
        }
    }

    public var columns: [Column]
    public var rows: [[String]]

    public init(columns: [Column], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }

    /// Renders to lines. `width` cuts columns to fit (nil: never cut, as into a pipe);
    /// `color` makes the header bold.
    public func render(width: Int?, color: Bool) -> String {
        let cells = rows.map { $0.map { CellText.prepare($0) } }
        let titles = columns.map { CellText.prepare($0.title) }
        var widths = titles.map { TextWidth.of($0) }
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], TextWidth.of(cell))
            }
        }
        let separator = 2
        if let width {
            // Shrink the widest column, one cell at a time, until the table fits.
            let floor = 6
            while widths.reduce(0, +) + separator * max(0, widths.count - 1) > width {
                guard let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > floor else { break }
                widths[widest] -= 1
            }
        }
        func line(_ values: [String]) -> String {
            var parts: [String] = []
            for (index, value) in values.enumerated() where index < widths.count {
                let cut = TextWidth.truncate(value, to: widths[index])
                parts.append(TextWidth.pad(cut, to: widths[index], alignRight: columns[index].alignRight))
            }
            return parts.joined(separator: String(repeating: " ", count: separator))
        }
        var lines: [String] = []
        let header = line(titles)
        lines.append(color ? "\u{1B}[1m" + header + "\u{1B}[0m" : header)
        lines.append(widths.map { String(repeating: "─", count: $0) }.joined(separator: String(repeating: " ", count: separator)))
        for row in cells { lines.append(line(row)) }
        return lines.map { $0.trailingSpacesRemoved }.joined(separator: "\n")
    }
}

/// Text from data made fit for one table cell or detail line.
enum CellText {
    /// Escapes control characters, and wraps right-to-left text in a first-strong isolate
    /// (U+2068 … U+2069) so the terminal's bidi reordering stays inside the cell.
    static func prepare(_ text: String) -> String {
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
