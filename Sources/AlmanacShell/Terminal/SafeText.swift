/// Text from data and file names made safe for a terminal: control characters, escape
/// sequences and bidirectional overrides become visible escapes instead of acting.
public enum SafeText {
    public static func escape(_ text: some StringProtocol, keepingTabs: Bool = false) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool { needsEscape(scalar) && !(keepingTabs && scalar == "\t") }
        if !text.unicodeScalars.contains(where: escaped) { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            guard escaped(scalar) else { result.unicodeScalars.append(scalar); continue }
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\u{1B}": result += "\\e"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += scalar.value <= 0xFF
                    ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    : "\\u{" + hex + "}"
            }
        }
        return result
    }

    /// The most of a word an error quotes: enough to recognise it, never the whole of a
    /// word that could be megabytes long.
    public static let excerptLimit = 60

    /// `escape`d, cut to `limit` characters with `…` when it is longer.
    public static func excerpt(_ text: some StringProtocol, limit: Int = excerptLimit) -> String {
        guard !text.unicodeScalars.dropFirst(limit).isEmpty else { return escape(text) }
        var shown = String.UnicodeScalarView()
        shown.append(contentsOf: text.unicodeScalars.prefix(limit))
        // A quoted word keeps its closing quote.
        let quote = text.unicodeScalars.last.flatMap { $0 == "'" || $0 == "\"" ? String($0) : nil } ?? ""
        return escape(String(shown)) + "…" + quote
    }

    /// A message for the person with every word in it kept short: a run of more than
    /// `longestWord` characters without a space (a 20 MB word quoted back) keeps its first
    /// `excerptLimit` characters and `…`, and a line keeps at most `longestLine`. Paths and
    /// ordinary words stay whole.
    public static func shortened(_ message: String) -> String {
        guard message.utf8.count > longestWord else { return message }
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let words = line.split(separator: " ", omittingEmptySubsequences: false).map { word in
                word.unicodeScalars.dropFirst(longestWord).isEmpty ? String(word) : excerpt(word)
            }
            let shown = words.joined(separator: " ")
            return shown.unicodeScalars.dropFirst(longestLine).isEmpty ? shown : excerpt(shown, limit: longestLine)
        }.joined(separator: "\n")
    }

    static let longestWord = 256
    static let longestLine = 2000

    /// Like `escape`, but line breaks stay line breaks: for messages that are several lines.
    /// `keepingTabs`: TSV's own separators (its cells' tabs are escaped already) stay tabs.
    public static func escapeLines(_ text: some StringProtocol, keepingTabs: Bool = false) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escape($0, keepingTabs: keepingTabs) }.joined(separator: "\n")
    }

    /// C0 controls, DEL, C1 controls, and the bidi embeddings, overrides and isolates that
    /// could reorder what follows them on screen.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
