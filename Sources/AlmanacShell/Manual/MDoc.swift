/// Text made safe for an mdoc(7) page: roff's escape character, lines that would read as
/// requests, and characters beyond ASCII (written as `\[uXXXX]`, which every formatter
/// reads whatever its input encoding).
enum MDoc {
    /// A paragraph, then each topic as a tagged item (`help expressions`, `help links`).
    static func topics(_ introduction: String, _ rules: [(topic: String, text: String)]) -> [String] {
        var lines = [text(introduction), ".Bl -tag -width Ds"]
        for rule in rules {
            lines.append(".It " + quoted(rule.topic))
            lines.append(text(rule.text))
        }
        return lines + [".El"]
    }

    /// A text line (or several): escaped, each starting safely.
    static func text(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? ".Pp" : line(String($0), literalMinus: false) }
            .joined(separator: "\n")
    }

    /// One quoted macro argument: shown as it is, never read as a macro name or (`\&` first)
    /// as punctuation that mdoc would move.
    static func quoted(_ text: String) -> String {
        "\"\\&" + characters(text, literalMinus: true).replacingOccurrences(of: "\"", with: "\\(dq") + "\""
    }

    /// Lines shown exactly as written, as in a terminal.
    static func literal(_ lines: [String]) -> String {
        ([".Bd -literal -offset indent"] + lines.map { line($0, literalMinus: true) } + [".Ed"]).joined(separator: "\n")
    }

    /// A line that starts with `.` or `'` would be a request: `\&` before it makes it text.
    private static func line(_ text: String, literalMinus: Bool) -> String {
        let escaped = characters(text, literalMinus: literalMinus)
        return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
    }

    /// `literalMinus`: a `-` that must stay a minus (options, commands to copy), not a hyphen.
    private static func characters(_ text: String, literalMinus: Bool) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-" where literalMinus: result += "\\-"
            case _ where scalar.isASCII: result.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return result
    }
}
