/// Prose fitted to the terminal: wrapped at spaces, never inside a word, the lines after the
/// first indented (a hanging indent) so a paragraph stays a block under its label. The one
/// wrapping rule for help, usage lines, messages, warnings, load summaries, detail paragraphs
/// and trip addresses. Colour escapes take no room; a word longer than the line gets a line
/// of its own rather than being cut.
public enum Prose {
    /// `text` as lines of at most `width` cells (nil: one line, as into a pipe). The first line
    /// starts with `lead` (a label, an indent), the others with `indent` spaces (default: as
    /// wide as `lead`).
    public static func wrap(_ text: String, width: Int?, lead: String = "", indent: Int? = nil) -> [String] {
        let hanging = String(repeating: " ", count: indent ?? visibleWidth(lead))
        guard let width, visibleWidth(lead) + visibleWidth(text) > width else { return [lead + text] }
        var lines: [String] = []
        var current = lead
        var currentWidth = visibleWidth(lead)
        var atLineStart = true
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = visibleWidth(word)
            if !atLineStart, currentWidth + 1 + wordWidth > width {
                lines.append(current)
                current = hanging
                currentWidth = hanging.count
                atLineStart = true
            }
            if !atLineStart {
                current += " "
                currentWidth += 1
            }
            current += word
            currentWidth += wordWidth
            atLineStart = false
        }
        lines.append(current)
        return lines
    }

    /// A message (an error, a warning, a load's summary) wrapped line by line (see `fit`).
    public static func message(_ text: String, width: Int?) -> String {
        guard width != nil else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { fit(String($0), width: width) }
            .joined(separator: "\n")
    }

    /// One line of prose, wrapped when it is too wide, the lines after the first under where
    /// its text starts: after a short label (`error: `, `usage: `, `stations: `, `stdin:3: `),
    /// after a term and the gap that follows it (`  filter    Narrow the results…`,
    /// `  From     Stadion Center…`), or at the line's own indent.
    public static func fit(_ line: String, width: Int?) -> String {
        guard let width, visibleWidth(line) > width else { return line }
        let (lead, rest) = lead(of: line, width: width)
        return wrap(rest, width: width, lead: lead).joined(separator: "\n")
    }

    /// Where the text of `line` starts, as (what comes before, the text).
    static func lead(of line: String, width: Int) -> (String, String) {
        let characters = Array(line)
        let indent = characters.prefix { $0 == " " }.count
        // A label: a word with no spaces, ending in ": " (a coloured one in `:`, escapes, ` `).
        if indent == 0, let (labelEnd, textStart) = labelEnd(of: line) {
            let label = line[..<labelEnd]
            let visible = visibleWidth(label)
            if visible > 0, visible <= 24, !stripEscapes(label).contains(" ") {
                return (String(line[..<textStart]), String(line[textStart...]))
            }
        }
        // A term (`→ End Ctrl-F`), then two spaces or more, then the text: a column, in the
        // line's first half.
        var index = indent
        while index + 1 < characters.count, !(characters[index] == " " && characters[index + 1] == " ") { index += 1 }
        var gapEnd = index
        while gapEnd < characters.count, characters[gapEnd] == " " { gapEnd += 1 }
        if index > indent, gapEnd - index >= 2, gapEnd < characters.count,
           visibleWidth(String(characters[..<gapEnd])) <= width / 2 {
            return (String(characters[..<gapEnd]), String(characters[gapEnd...]))
        }
        return (String(characters[..<indent]), String(characters[indent...]))
    }

    /// Cells `text` takes, colour escapes (`ESC [ … m`) left out.
    public static func visibleWidth(_ text: some StringProtocol) -> Int {
        text.contains("\u{1B}") ? TextWidth.of(stripEscapes(text)) : TextWidth.of(text)
    }

    /// The first `:` followed by a space, colour escapes between them skipped: where a label
    /// ends, and where the text after its space starts.
    private static func labelEnd(of line: String) -> (String.Index, String.Index)? {
        let scalars = line.unicodeScalars
        var index = scalars.startIndex
        while let colon = scalars[index...].firstIndex(of: ":") {
            var next = scalars.index(after: colon)
            var inEscape = false
            while next < scalars.endIndex, inEscape || scalars[next] == "\u{1B}" {
                let scalar = scalars[next]
                if scalar == "\u{1B}" { inEscape = true } else if (0x40...0x7E).contains(scalar.value), scalar != "[" { inEscape = false }
                next = scalars.index(after: next)
            }
            if next < scalars.endIndex, scalars[next] == " " { return (colon, scalars.index(after: next)) }
            index = scalars.index(after: colon)
        }
        return nil
    }

    private static func stripEscapes(_ text: some StringProtocol) -> String {
        var result = ""
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value), scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" { inEscape = true; continue }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
