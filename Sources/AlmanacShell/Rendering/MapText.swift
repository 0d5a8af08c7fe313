import AlmanacCore

/// A braille map as terminal text: plain, or with each cell coloured by what it shows.
enum MapText {
    /// SGR colours by ink: outlines in the terminal's own colour, the results' shapes green,
    /// a route yellow, points bold red.
    static func colour(_ ink: BrailleCanvas.Ink) -> String? {
        switch ink {
        case .none, .outline: nil
        case .shape: "\u{1B}[32m"
        case .route: "\u{1B}[33m"
        case .point: "\u{1B}[1;31m"
        }
    }

    static func lines(_ canvas: BrailleCanvas, color: Bool) -> [String] {
        guard color else { return canvas.lines }
        return (0..<canvas.rows).map { row in
            canvas.runs(row: row).map { run in
                colour(run.ink).map { $0 + run.text + "\u{1B}[0m" } ?? run.text
            }.joined()
        }
    }

    /// Parts of a legend line joined by `separator`, starting a new line where the next part
    /// would pass `width` (nil: never), so a legend is never cut or wrapped mid-word by the terminal.
    static func flow(_ parts: [String], separator: String, width: Int?) -> [String] {
        var lines: [String] = []
        for part in parts {
            if let last = lines.last, width.map({ TextWidth.of(last) + TextWidth.of(separator) + TextWidth.of(part) < $0 }) ?? true {
                lines[lines.count - 1] = last + separator + part
            } else {
                lines.append(part)
            }
        }
        return lines
    }

    /// The width legends flow within: the terminal's, none into a pipe.
    static func legendWidth(_ terminal: TerminalInfo) -> Int? { terminal.isTerminal ? terminal.columns : nil }

    /// The map's size in character cells: `--size COLUMNSxROWS`, else the terminal less room
    /// for a legend of up to four lines and the prompt (80 × 24 into a pipe), so a map never
    /// needs the pager.
    static func size(_ text: String?, terminal: TerminalInfo) throws(ShellError) -> (columns: Int, rows: Int) {
        if let text {
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
                  (4...1000).contains(columns), (2...500).contains(rows) else {
                throw .invalid("--size takes COLUMNSxROWS, from 4x2 to 1000x500 — not '\(SafeText.escape(text))'")
            }
            return (columns, rows)
        }
        let columns = terminal.isTerminal ? terminal.columns : 80
        let rows = terminal.isTerminal ? terminal.rows : 24
        return (max(4, columns - 1), max(2, rows - 7))
    }
}
