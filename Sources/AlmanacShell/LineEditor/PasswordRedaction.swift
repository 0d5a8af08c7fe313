/// A typed line as it may be echoed or kept: the secrets of the URLs in it taken out
/// (`URLSecrets` decides what a secret is, with libpq's reading of PostgreSQL URLs).
///
/// The line is read as the tokenizer reads it, so a URL word that is quoted or escaped
/// (`'postgresql://me:two words@db/x'`, `postgresql://me:a\ b@db/x`) is redacted whole, and
/// written back quoted the way it was.
enum PasswordRedaction {
    /// What history keeps: `load s from postgresql://me:secret@db/shop?table=sales` becomes
    /// `load s from postgresql://me@db/shop?table=sales`. Taken out, not masked: the recalled
    /// line runs as it is, and libpq then finds the password in `~/.pgpass` or `PGPASSWORD`.
    static func line(_ line: String) -> String { redacted(line, removing: true) }

    /// What an echo of the line shows (the caret line under an error): passwords as `***`.
    static func shown(_ line: String) -> String { redacted(line, removing: false) }

    /// Every secret the line's words hold, in each spelling, for scrubbing messages about it.
    static func secrets(in line: String) -> [String] {
        guard line.contains("://") else { return [] }
        return Tokenizer.layout(of: line).pieces.flatMap { piece -> [String] in
            switch piece {
            case let .word(word, _, _): return URLSecrets.secrets(inWord: word.text)
            case let .unclosedQuote(range): return URLSecrets.secrets(inWord: String(Array(line)[range].dropFirst()))
            default: return []
            }
        }
    }

    /// A message about `line` (an error quoting its words) with the line's secrets hidden.
    static func message(_ message: String, about line: String?) -> String {
        guard message.contains("://") || line?.contains("://") == true else { return message }
        var result = message
        if let line {
            // A word quoted whole in the message is replaced by its redacted form first.
            for word in Tokenizer.layout(of: line).statements.flatMap(\.words) where word.text.contains("://") {
                result = result.replacingOccurrences(of: word.text, with: URLSecrets.word(word.text))
            }
        }
        return URLSecrets.text(result, secrets: line.map(secrets(in:)) ?? [])
    }

    /// The caret line under an error at `column` (1-based, in characters, `width` wide): the
    /// line as shown — redacted, escaped, each tab spaces to the next multiple of 8, as an
    /// editor and the terminal show it — and the caret's offset and width in it. The offset,
    /// plus 1, is the column a script's error names (`stdin:2:35:`), as gcc's display column is.
    static func caret(_ line: String, column: Int, width: Int) -> (line: String, offset: Int, width: Int) {
        let before = String(line.prefix(column - 1))
        let through = String(line.prefix(column - 1 + width))
        let offset = TextWidth.of(displayed(shown(before)))
        // The pointed words end where a word ends: their redacted form is the prefix's.
        let grown = TextWidth.of(shown(through)) - TextWidth.of(through) - (TextWidth.of(shown(before)) - TextWidth.of(before))
        return (displayed(shown(line)), offset, max(1, width + grown))
    }

    /// `text` escaped, its tabs kept as spaces to the next multiple of `tabStop` columns: what
    /// a terminal shows of a typed line, whatever its own tab stops are.
    static func displayed(_ text: String) -> String {
        let escaped = SafeText.escape(text, keepingTabs: true)
        guard escaped.contains("\t") else { return escaped }
        var result = ""
        var width = 0
        for piece in escaped.split(separator: "\t", omittingEmptySubsequences: false).enumerated() {
            if piece.offset > 0 {
                let spaces = tabStop - width % tabStop
                result += String(repeating: " ", count: spaces)
                width += spaces
            }
            result += piece.element
            width += TextWidth.of(piece.element)
        }
        return result
    }

    /// Columns between tab stops, as terminals and editors set them.
    static let tabStop = 8

    private static func redacted(_ line: String, removing: Bool) -> String {
        guard line.contains("://") else { return line }
        let characters = Array(line)
        var result = ""
        var position = 0
        for piece in Tokenizer.layout(of: line).pieces {
            let range: Range<Int>
            let replacement: String
            switch piece {
            case let .word(word, wordRange, _):
                guard word.text.contains("://") else { continue }
                let redacted = URLSecrets.word(word.text, removing: removing)
                guard redacted != word.text else { continue }
                range = wordRange
                replacement = requoted(redacted, like: characters[wordRange.lowerBound])
            case let .unclosedQuote(quoteRange):
                let text = String(characters[quoteRange].dropFirst())
                guard text.contains("://") else { continue }
                range = quoteRange
                replacement = String(characters[quoteRange.lowerBound]) + URLSecrets.word(text, removing: removing)
            case let .comment(commentRange):
                range = commentRange
                replacement = URLSecrets.text(String(characters[commentRange]), removing: removing)
            case .separator:
                continue
            }
            result += String(characters[position..<range.lowerBound]) + replacement
            position = range.upperBound
        }
        result += String(characters[position...])
        return result
    }

    /// `text` as one word again: in the quotes the word opened with, else quoted only if it
    /// needs to be.
    private static func requoted(_ text: String, like first: Character) -> String {
        let needsQuotes = text.contains { $0.isWhitespace || "\"'\\;#".contains($0) }
        if first == "\"" || (needsQuotes && text.contains("'")) {
            return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return first == "'" || needsQuotes ? "'" + text + "'" : text
    }
}
