/// A line as history keeps it: the passwords of the URLs in it taken out.
///
/// `load s from postgresql://me:secret@db/shop?table=sales` is remembered as
/// `load s from postgresql://me@db/shop?table=sales`, and a `password=` parameter is dropped.
/// Taken out, not masked: the line recalled from history runs as it is, and libpq then finds
/// the password where it belongs — `~/.pgpass` or `PGPASSWORD`.
enum PasswordRedaction {
    static func line(_ line: String) -> String {
        guard line.contains("://") else { return line }
        var result = ""
        var word = ""
        for character in line {
            if character.isWhitespace {
                result += url(word)
                result.append(character)
                word = ""
            } else {
                word.append(character)
            }
        }
        return result + url(word)
    }

    /// One word: `scheme://user:password@host…` loses `:password`, its query `password=…`.
    static func url(_ word: String) -> String {
        guard let schemeEnd = word.range(of: "://") else { return word }
        var rest = Substring(word[schemeEnd.upperBound...])
        var head = String(word[..<schemeEnd.upperBound])
        let authorityEnd = rest.firstIndex(where: { "/?#\"'".contains($0) }) ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
            head += rest[..<colon]
            rest = rest[at...]
        }
        guard let question = rest.firstIndex(of: "?") else { return head + rest }
        let queryEnd = rest[question...].firstIndex(where: { $0 == "#" || $0 == "\"" || $0 == "'" }) ?? rest.endIndex
        let kept = rest[rest.index(after: question)..<queryEnd].split(separator: "&", omittingEmptySubsequences: false)
            .filter { !$0.lowercased().hasPrefix("password=") }
        return head + rest[..<question] + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + rest[queryEnd...]
    }
}
