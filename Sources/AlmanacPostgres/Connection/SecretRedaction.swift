import CLibPQ
import Foundation

/// The one redaction every echo of user input passes through: a URL's password, in whatever
/// spelling it was given, never reaches the screen, a message or a file.
///
/// For a PostgreSQL URL libpq decides what the password is: `PQconninfoParse` reads the URL,
/// every option it marks secret (`dispchar` "*": `password`, `sslpassword`…) is a value to
/// hide, and the redacted URL is parsed again to prove none survives (else all of it after
/// `://` is hidden). libpq reads `u:se?cret@h`, `u:se#cret@h` and `pass%77ord=x` as passwords,
/// where a web URL parser would not. Other URLs (`https://user:token@…`) lose the part
/// between the first `:` and the `@` of their authority and any `password=` parameter.
public enum SecretRedaction {
    public enum Style: Sendable {
        /// `u:***@host`, `password=***`: what messages and listings show.
        case masked
        /// `u@host`, the parameter dropped: what history keeps, so a recalled line runs and
        /// libpq finds the password where it belongs (`~/.pgpass`, `PGPASSWORD`).
        case removed
    }

    static let mask = "***"

    /// `url` (one whole URL, `scheme://…`) without its secrets.
    public static func url(_ url: String, _ style: Style = .masked) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let isPostgres = PostgresURL.isPostgres(url)
        let redacted = byGrammar(url, after: schemeEnd.upperBound, style: style, postgres: isPostgres)
        guard isPostgres, (try? LibPQ.open()) != nil, let original = libpqOptions(url) else { return redacted }
        // libpq has the last word: nothing it would read as a secret may be left.
        let survivors = libpqOptions(redacted).map { options in
            options.filter { $0.secret && $0.value != nil && !(style == .masked && $0.value == mask) }
        }
        if let survivors, survivors.isEmpty { return redacted }
        if survivors == nil, !original.contains(where: { $0.secret && $0.value != nil }) { return redacted }
        return String(url[..<schemeEnd.upperBound]) + mask
    }

    /// The secrets `word` (one word of a line) holds, as libpq and the URL spell them: the
    /// values to hide wherever else they appear. Empty for a word without a URL.
    public static func secrets(inWord word: String) -> [String] {
        guard let start = urlStart(in: word) else { return [] }
        let url = String(word[start...])
        guard let schemeEnd = url.range(of: "://") else { return [] }
        var found: Set<String> = []
        if PostgresURL.isPostgres(url), (try? LibPQ.open()) != nil, let options = libpqOptions(url) {
            for option in options where option.secret { if let value = option.value, !value.isEmpty { found.insert(value) } }
        }
        for span in secretSpans(url, after: schemeEnd.upperBound, postgres: PostgresURL.isPostgres(url)) {
            let written = String(url[span.value])
            guard !written.isEmpty else { continue }
            found.insert(written)
            if let decoded = written.removingPercentEncoding, !decoded.isEmpty { found.insert(decoded) }
        }
        return found.sorted { $0.count > $1.count }
    }

    /// `word` with the URL in it redacted (a word's URL runs from its scheme to the word's end).
    public static func word(_ word: String, _ style: Style = .masked) -> String {
        guard let start = urlStart(in: word) else { return word }
        return String(word[..<start]) + url(String(word[start...]), style)
    }

    /// Free text (a message, a comment): every `scheme://…` up to a space or a quote redacted,
    /// then every one of `secrets` (from `secrets(inWord:)`) that is still there.
    public static func text(_ text: String, _ style: Style = .masked, secrets: [String] = []) -> String {
        var result = ""
        var rest = text[...]
        while let separator = rest.range(of: "://") {
            var start = separator.lowerBound
            while start > rest.startIndex, isSchemeCharacter(rest[rest.index(before: start)]) { start = rest.index(before: start) }
            var end = separator.upperBound
            while end < rest.endIndex, !rest[end].isWhitespace, rest[end] != "'", rest[end] != "\"" { end = rest.index(after: end) }
            result += rest[..<start]
            result += start < separator.lowerBound ? url(String(rest[start..<end]), style) : String(rest[start..<end])
            rest = rest[end...]
        }
        result += rest
        // Short secrets are left alone in free text: a password `e` would mask every `e`.
        for secret in secrets.sorted(by: { $0.count > $1.count }) where secret.count >= 3 {
            result = result.replacingOccurrences(of: secret, with: mask)
        }
        return result
    }

    // MARK: - The URL's grammar, as libpq reads it

    private static func isSchemeCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "+.-".contains(character))
    }

    /// Where the URL in `word` starts: the scheme before its first `://`.
    private static func urlStart(in word: String) -> String.Index? {
        guard let separator = word.range(of: "://") else { return nil }
        var start = separator.lowerBound
        while start > word.startIndex, isSchemeCharacter(word[word.index(before: start)]) { start = word.index(before: start) }
        return start < separator.lowerBound ? start : nil
    }

    /// A place in a URL that holds a secret: `value` is hidden; `removal` is what goes when
    /// the secret is taken out rather than masked (`:password`, or a whole `&name=value`).
    struct Span {
        var value: Range<String.Index>
        var removal: Range<String.Index>
    }

    /// The secret places of `url`: the password of the user information and the value of
    /// every parameter whose name (percent-decoded) says password, secret or token.
    static func secretSpans(_ url: String, after authorityStart: String.Index, postgres: Bool) -> [Span] {
        var spans: [Span] = []
        var queryFrom = authorityStart
        // libpq ends the user information at the first `@` before any `/` (a `?` or `#` may be
        // in the password); a web URL at the last `@` of the authority. Hide up to the later.
        let stops: Set<Character> = postgres ? ["/"] : ["/", "?", "#"]
        let authorityEnd = url[authorityStart...].firstIndex { stops.contains($0) } ?? url.endIndex
        if let firstAt = url[authorityStart..<authorityEnd].firstIndex(of: "@") {
            let extendedEnd = url[firstAt...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
            let lastAt = url[firstAt..<extendedEnd].lastIndex(of: "@") ?? firstAt
            if let colon = url[authorityStart..<firstAt].firstIndex(of: ":") {
                spans.append(Span(value: url.index(after: colon)..<lastAt, removal: colon..<lastAt))
            }
            queryFrom = url.index(after: lastAt)
        }
        guard let question = url[queryFrom...].firstIndex(of: "?") else { return spans }
        var pieceStart = url.index(after: question)
        var first = true
        while true {
            let pieceEnd = url[pieceStart...].firstIndex(of: "&") ?? url.endIndex
            let piece = url[pieceStart..<pieceEnd]
            // The piece and one separator: the `&` after it, or for the first the one before the next.
            let removal = first
                ? pieceStart..<(pieceEnd < url.endIndex ? url.index(after: pieceEnd) : pieceEnd)
                : url.index(before: pieceStart)..<pieceEnd
            if let equals = piece.firstIndex(of: "="), isSecretName(String(piece[..<equals])) {
                spans.append(Span(value: url.index(after: equals)..<pieceEnd, removal: removal))
            } else if let embedded = piece.range(of: "password=", options: .caseInsensitive) {
                // `x=1#password=y`: not libpq's parameter, but plainly meant as one.
                spans.append(Span(value: embedded.upperBound..<pieceEnd, removal: embedded.upperBound..<pieceEnd))
            }
            guard pieceEnd < url.endIndex else { break }
            pieceStart = url.index(after: pieceEnd)
            first = false
        }
        return spans
    }

    private static func isSecretName(_ name: String) -> Bool {
        let decoded = (name.removingPercentEncoding ?? name).lowercased().trimmingCharacters(in: .whitespaces)
        return decoded.contains("password") || decoded.contains("secret") || decoded.contains("token")
    }

    /// `url` with its secret places masked or taken out.
    private static func byGrammar(_ url: String, after authorityStart: String.Index, style: Style, postgres: Bool) -> String {
        var result = ""
        var position = url.startIndex
        for span in secretSpans(url, after: authorityStart, postgres: postgres) {
            let cut = style == .masked ? span.value : span.removal
            guard cut.lowerBound >= position else { continue }
            result += url[position..<cut.lowerBound]
            if style == .masked { result += mask }
            position = cut.upperBound
        }
        result += url[position...]
        if style == .removed, result.hasSuffix("?") { result.removeLast() }
        return result
    }

    // MARK: - libpq's reading

    struct LibpqOption {
        var keyword: String
        var value: String?
        var secret: Bool
    }

    /// libpq's options for `url` with almanac's own `table` parameter taken out; nil when
    /// libpq cannot read it.
    static func libpqOptions(_ url: String) -> [LibpqOption]? {
        let text = PostgresURL.withoutTable(url)
        var error: UnsafeMutablePointer<CChar>?
        guard let parsed = PQconninfoParse(text, &error) else {
            if let error { PQfreemem(error) }
            return nil
        }
        defer { PQconninfoFree(parsed) }
        var options: [LibpqOption] = []
        var option = parsed
        while let keyword = option.pointee.keyword {
            let display = option.pointee.dispchar.map { String(cString: $0) } ?? ""
            let name = String(cString: keyword)
            options.append(LibpqOption(keyword: name, value: option.pointee.val.map { String(cString: $0) },
                                       secret: display.contains("*") || isSecretName(name)))
            option += 1
        }
        return options
    }
}
