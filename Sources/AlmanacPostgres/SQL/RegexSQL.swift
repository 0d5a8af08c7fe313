/// An `=~` pattern, written in ICU's syntax (as memory reads it with NSRegularExpression), as
/// PostgreSQL's regular expressions read the same pattern: what the two spell differently is
/// rewritten, what PostgreSQL lacks is refused — never a silently different answer.
enum RegexSQL {
    /// The pattern for PostgreSQL's `~`: `\b` (a word boundary to ICU, a backspace to
    /// PostgreSQL) is `\y`, `\B` is `\Y`; Unicode properties (`\p{L}`) are refused.
    static func pattern(_ icu: String) throws -> String {
        var result = ""
        var characters = icu.makeIterator()
        var inClass = false
        while let character = characters.next() {
            if character == "\\", let escaped = characters.next() {
                switch escaped {
                case "b" where !inClass: result += "\\y"
                case "B" where !inClass: result += "\\Y"
                case "p", "P":
                    throw PostgresError.invalid("the pattern '\(icu)' uses \\\(escaped){…}, which PostgreSQL's regular expressions lack: "
                        + "write a class such as [[:alpha:]] or [[:upper:]] instead")
                default: result += "\\" + String(escaped)
                }
                continue
            }
            if character == "[" { inClass = true } else if character == "]" { inClass = false }
            result.append(character)
        }
        return result
    }
}
