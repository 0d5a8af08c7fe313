/// Unicode's simple case mapping, one character to one character, as PostgreSQL's and
/// DuckDB's `upper` and `lower` map: `upper('straße')` is `STRAßE` (Swift's full mapping makes
/// `STRASSE`), `lower('İ')` is `i`, `upper('ﬁ')` stays `ﬁ`. No context either: a final `Σ`
/// lowers to `σ`, as the databases lower it.
enum SimpleCaseMapping {
    static func uppercased(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.uppercased() }
        return map(text) { scalar in
            // Where the full mapping is several characters, the simple one is the titlecase
            // one when that is a single character (`ᾳ` → `ᾼ`), else the character itself.
            single(scalar.properties.uppercaseMapping) ?? single(scalar.properties.titlecaseMapping) ?? scalar
        }
    }

    static func lowercased(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return map(text) { scalar in
            // `İ` is the one character whose full lowercase is two (`i` and a combining dot).
            single(scalar.properties.lowercaseMapping) ?? (scalar == "\u{130}" ? "i" : scalar)
        }
    }

    private static func map(_ text: String, _ transform: (Unicode.Scalar) -> Unicode.Scalar) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { result.append(transform(scalar)) }
        return String(result)
    }

    private static func single(_ mapping: String) -> Unicode.Scalar? {
        var scalars = mapping.unicodeScalars.makeIterator()
        guard let first = scalars.next(), scalars.next() == nil else { return nil }
        return first
    }
}
