import CShims

/// How many terminal cells text takes: CJK and emoji two, combining marks none (libc's wcwidth).
public enum TextWidth {
    public static func of(_ text: some StringProtocol) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.unicodeScalars.reduce(0) { $0 + of($1) }
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
        var result = String.UnicodeScalarView()
        var width = 0
        for scalar in text.unicodeScalars {
            let cell = of(scalar)
            if width + cell > limit - 1 { break }
            result.append(scalar)
            width += cell
        }
        return String(result) + "…"
    }

    /// `text` padded with spaces to `width` cells, on the right (or on the left for numbers).
    public static func pad(_ text: String, to width: Int, alignRight: Bool = false) -> String {
        let missing = width - of(text)
        guard missing > 0 else { return text }
        let spaces = String(repeating: " ", count: missing)
        return alignRight ? spaces + text : text + spaces
    }
}
