/// An `=~` pattern, written in ICU's syntax (as memory reads it with NSRegularExpression), as
/// PostgreSQL's regular expressions read the same pattern: what the two spell differently is
/// rewritten, what PostgreSQL lacks is refused — never a silently different answer.
enum RegexSQL {
    /// The pattern for PostgreSQL's `~`: `\b` (a word boundary to ICU, a backspace to
    /// PostgreSQL) is `\y`, `\B` is `\Y`; Unicode properties (`\p{L}`) are refused, and so
    /// are flags set anywhere but at the very start (`^(?i)un`, `(?i:un)`), which PostgreSQL
    /// rejects with no word of where.
    static func pattern(_ icu: String) throws -> String {
        if let flags = misplacedFlags(in: icu) {
            throw PostgresError.invalid("the pattern '\(icu)' sets flags with \(flags), which PostgreSQL's regular expressions take "
                + "only as one (?flags) at the very start: write '(?i)^un', not '^(?i)un' or '(?i:un)'")
        }
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

    /// The first group that sets flags (`(?i)`, `(?-i)`, `(?i:…)`) other than one `(?flags)`
    /// opening the pattern; nil when there is none. Escapes and bracket classes hold no group.
    static func misplacedFlags(in icu: String) -> String? {
        let characters = Array(icu)
        var index = 0
        var inClass = false
        while index < characters.count {
            let character = characters[index]
            if character == "\\" {
                index += 2
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
            } else if character == "[" {
                inClass = true
            } else if character == "(", index + 1 < characters.count, characters[index + 1] == "?" {
                var end = index + 2
                while end < characters.count, characters[end].isLetter || characters[end] == "-" { end += 1 }
                if end > index + 2, end < characters.count, characters[end] == ")" || characters[end] == ":" {
                    let group = String(characters[index...end]) + (characters[end] == ":" ? "…)" : "")
                    if index > 0 || characters[end] == ":" || group.contains("-") { return group }
                }
            }
            index += 1
        }
        return nil
    }
}
