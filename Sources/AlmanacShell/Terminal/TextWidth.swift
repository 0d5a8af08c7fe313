import CShims

/// How many terminal cells text takes: CJK and emoji two, combining marks none (libc's wcwidth).
public enum TextWidth {
    public static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    /// One grapheme cluster, as terminals draw it: an emoji sequence — joined by U+200D (👩‍👩‍👧),
    /// shown as emoji by U+FE0F, or a flag's two regional indicators — takes two cells, not the
    /// sum of its parts (8 for a family); anything else its scalars' widths (a letter and its
    /// combining marks: one).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard scalars.count > 1 else { return scalars.first.map(of) ?? 0 }
        if scalars.contains(where: { $0.value == 0x200D || $0.value == 0xFE0F || (0x1F1E6...0x1F1FF).contains($0.value) }) {
            return scalars.contains(where: { of($0) > 0 }) ? 2 : 0
        }
        return scalars.reduce(0) { $0 + of($1) }
    }

    /// wcwidth answers by the locale's character type; make sure it is UTF-8 even when the
    /// caller (a test, a library user) never set one.
    private static let localeReady: Void = LocaleSetup.ensureUTF8IfUnset()

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        _ = localeReady
        if scalar.value < 0x80 { return scalar.value >= 0x20 && scalar.value != 0x7F ? 1 : 0 }
        // Isolates and marks we add around right-to-left text take no room.
        if (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x200E || scalar.value == 0x200F { return 0 }
        return max(0, Int(almanac_wcwidth(wchar_t(bitPattern: scalar.value))))
    }

    /// `text` cut to at most `limit` cells, ending in `…` when something was cut.
    public static func truncate(_ text: String, to limit: Int) -> String {
        guard limit > 0 else { return "" }
        if of(text) <= limit { return text }
        var result = ""
        var width = 0
        // By grapheme clusters: never half an emoji sequence or a letter without its accent.
        for character in text {
            let cell = of(character)
            if width + cell > limit - 1 { break }
            result.append(character)
            width += cell
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` cells, on the right (or on the left for numbers).
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let missing = width - of(text)
        guard missing > 0 else { return text }
        let spaces = String(repeating: " ", count: missing)
        return alignRight ? spaces + text : text + spaces
    }
}
