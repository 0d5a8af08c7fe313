/// Text from data and file names made safe for a terminal: control characters, escape
/// sequences and bidirectional overrides become visible escapes instead of acting.
public enum SafeText {
    public static func escape(_ text: some StringProtocol) -> String {
        if !text.unicodeScalars.contains(where: needsEscape) { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else { result.unicodeScalars.append(scalar); continue }
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

    /// Like `escape`, but line breaks stay line breaks: for messages that are several lines.
    public static func escapeLines(_ text: some StringProtocol) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escape($0) }.joined(separator: "\n")
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
