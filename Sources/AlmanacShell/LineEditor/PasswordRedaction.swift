/// A line as history keeps it: the passwords of the URLs in it taken out.
///
/// `load s from postgresql://me:secret@db/shop?table=sales` is remembered as
/// `load s from postgresql://me@db/shop?table=sales`, and a `password=` parameter is dropped.
/// Taken out, not masked: the line recalled from history runs as it is, and libpq then finds
/// the password where it belongs — `~/.pgpass` or `PGPASSWORD`.
enum PasswordRedaction {
    static func line(_ line: String) -> String {
        guard line.contains("://") else { return line }
        let characters = Array(line)
        var result = ""
        var index = 0
        var quote: Character?
        while index < characters.count {
            let character = characters[index]
            if character == "\"" || character == "'", quote == nil || quote == character {
                // A quote opens a word only at its start, as the tokenizer reads them.
                if quote != nil || index == 0 || characters[index - 1].isWhitespace { quote = quote == nil ? character : nil }
            }
            if character == ":", index + 2 < characters.count, characters[index + 1] == "/", characters[index + 2] == "/" {
                result += "://"
                index = url(characters, from: index + 3, quote: quote, into: &result)
                continue
            }
            result.append(character)
            index += 1
        }
        return result
    }

    /// Copies the URL after `scheme://` without `:password` before its `@` and without its
    /// `password=` parameter; returns where the URL ends.
    private static func url(_ characters: [Character], from start: Int, quote: Character?, into result: inout String) -> Int {
        func ends(_ character: Character) -> Bool { quote.map { character == $0 } ?? character.isWhitespace }
        var end = start
        while end < characters.count, !ends(characters[end]) { end += 1 }
        let text = characters[start..<end]
        let authorityEnd = text.firstIndex { "/?#".contains($0) } ?? end
        var rest = text[...]
        if let at = text[..<authorityEnd].lastIndex(of: "@"), let colon = text[..<at].firstIndex(of: ":") {
            result += String(text[..<colon])
            rest = text[at...]
        }
        guard let question = rest.firstIndex(of: "?") else {
            result += String(rest)
            return end
        }
        let queryEnd = rest[question...].firstIndex(of: "#") ?? rest.endIndex
        let kept = String(rest[(question + 1)..<queryEnd]).split(separator: "&", omittingEmptySubsequences: false)
            .filter { !$0.lowercased().hasPrefix("password=") }
        result += String(rest[..<question]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + String(rest[queryEnd...])
        return end
    }
}
