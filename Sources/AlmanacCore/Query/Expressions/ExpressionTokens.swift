/// One token of an expression, with where it was typed: a word of the command line and the
/// characters of it (`population/area` is three tokens of one word). Quoted words are text.
public struct ExpressionToken: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A field path, a function's name or a keyword (`and`, `is`, `as`, `desc`).
        case word
        case number(Double)
        case date(Double)
        /// Quoted text, or a value word after a comparison that is no name (`https://…`, `19BBY`).
        case text
        /// `+ - * / % || = != ~ !~ =~ < <= > >=`.
        case symbol
        case open, close, comma
    }

    public var kind: Kind
    public var text: String
    public var isQuoted: Bool
    public var word: Int
    public var characters: Range<Int>

    /// Whether it is the keyword `keyword` (unquoted, any case).
    public func isKeyword(_ keyword: String) -> Bool { kind == .word && text.lowercased() == keyword }

    public var isSymbol: Bool { kind == .symbol }
}

/// A syntax error is an `ExpressionError` that says the words do not parse (the usage is shown with it).
public typealias ExpressionSyntaxError = ExpressionError

public enum ExpressionTokens {
    static let symbols = ["||", "==", "!=", "!~", "=~", "<=", ">=", "<>", "+", "-", "*", "/", "%", "=", "~", "<", ">"]
    public static let comparisonSymbols: Set<String> = ["=", "!=", "~", "!~", "=~", "<", "<=", ">", ">="]

    /// Splits the command line's words into tokens. After a comparison, a value that is no
    /// name, number or date is one text token as typed (`url = https://swapi.dev/api/films/1/`,
    /// `birth_year = 19BBY`, `timezones ~ UTC+01`), as filters have always read it.
    ///
    /// `groupedNumbers` (a filter's condition, which has no list of items): outside a
    /// function's parentheses, where a comma means nothing, `1,000,000` is one number. In a
    /// call `,` separates arguments (`power(2,100)`), and in sort, columns, group… items
    /// (`columns population > 1,000` is two), so there it stays a comma.
    public static func tokens(_ words: [(text: String, isQuoted: Bool)], groupedNumbers: Bool = false) -> [ExpressionToken] {
        var tokens: [ExpressionToken] = []
        // For each open parenthesis, whether it is a call's (its arguments are split at commas).
        var calls: [Bool] = []
        for (index, word) in words.enumerated() {
            if word.isQuoted {
                tokens.append(ExpressionToken(kind: .text, text: word.text, isQuoted: true, word: index, characters: 0..<word.text.count))
                continue
            }
            let characters = Array(word.text)
            var position = 0
            func add(_ kind: ExpressionToken.Kind, _ start: Int, _ end: Int, text: String? = nil) {
                tokens.append(ExpressionToken(kind: kind, text: text ?? String(characters[start..<end]), isQuoted: false,
                                              word: index, characters: start..<end))
            }
            while position < characters.count {
                let character = characters[position]
                let start = position
                if let last = tokens.last, last.isSymbol, comparisonSymbols.contains(last.text),
                   let end = valueWordEnd(characters, from: position) {
                    add(.text, start, end)
                    position = end
                    continue
                }
                switch character {
                case "(":
                    calls.append(tokens.last?.kind == .word)
                    add(.open, start, start + 1)
                    position += 1
                case ")":
                    _ = calls.popLast()
                    add(.close, start, start + 1)
                    position += 1
                case ",": add(.comma, start, start + 1); position += 1
                default:
                    if let symbol = symbols.first(where: { matches($0, characters, at: position) }) {
                        // `==` is `=` and `<>` is `!=`, as programmers type them.
                        let spelled = symbol == "==" ? "=" : symbol == "<>" ? "!=" : symbol
                        add(.symbol, start, start + symbol.count, text: spelled)
                        position += symbol.count
                    } else if groupedNumbers, isDigit(character), !calls.contains(true), let end = groupedNumberEnd(characters, from: start) {
                        let text = String(characters[start..<end])
                        add(.number(Double(text.filter { $0 != "," }) ?? .nan), start, end, text: text)
                        position = end
                    } else if isDigit(character) || (character == "." && position + 1 < characters.count && isDigit(characters[position + 1])) {
                        position = numberOrDate(characters, from: start, add: add)
                    } else {
                        position += 1
                        while position < characters.count, isNameCharacter(characters, position) { position += 1 }
                        add(.word, start, position)
                    }
                }
            }
        }
        return tokens
    }

    /// The words of `text`, split at spaces, `'…'` and `"…"` quoting (a doubled quote inside is
    /// one): how a spec's canonical text (`population / area as density`) is read back.
    public static func words(of text: String) -> [(text: String, isQuoted: Bool)] {
        var words: [(text: String, isQuoted: Bool)] = []
        var current = ""
        var quoted = false
        var quote: Character?
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == open {
                    if index + 1 < characters.count, characters[index + 1] == open {
                        current.append(open)
                        index += 2
                        continue
                    }
                    // A quoted word ends at its quote: `'none')` is the text, then `)`.
                    quote = nil
                    words.append((current, true))
                    current = ""
                    quoted = false
                } else {
                    current.append(character)
                }
            } else if character == "'" || character == "\"", current.isEmpty || "(,=<>~+-*/%|".contains(current.last!) {
                if !current.isEmpty { words.append((current, false)) }
                current = ""
                quote = character
                quoted = true
            } else if character == " " {
                if !current.isEmpty || quoted { words.append((current, quoted)) }
                current = ""
                quoted = false
            } else {
                current.append(character)
            }
            index += 1
        }
        if !current.isEmpty || quoted { words.append((current, quoted)) }
        return words
    }

    private static func matches(_ symbol: String, _ characters: [Character], at position: Int) -> Bool {
        var offset = position
        for character in symbol {
            guard offset < characters.count, characters[offset] == character else { return false }
            offset += 1
        }
        return true
    }

    static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }

    /// Letters of any script, digits, `_`, `.`, `@`, `$`; a `-` between such characters
    /// (`iso639-1`, `first-name`) — write `a - b` with spaces to subtract.
    static func isNameCharacter(_ characters: [Character], _ position: Int) -> Bool {
        let character = characters[position]
        if character.isLetter || character.isNumber || character == "_" || character == "." || character == "@" || character == "$" { return true }
        if character == "-", position > 0, position + 1 < characters.count {
            let before = characters[position - 1]
            let after = characters[position + 1]
            return (before.isLetter || before.isNumber || before == "_") && (after.isLetter || after.isNumber || after == "_")
        }
        return false
    }

    /// After a comparison: the end of a value word that reads as none of a name, a number, a
    /// date or a parenthesis (`https://…`, `19BBY`, `UTC+01`, `€`), or nil to tokenize as usual.
    static func valueWordEnd(_ characters: [Character], from start: Int) -> Int? {
        var end = start
        while end < characters.count, characters[end] != ")", characters[end] != "," { end += 1 }
        guard end > start else { return nil }
        let text = String(characters[start..<end])
        let first = characters[start]
        if first == "(" || first == "'" || first == "\"" { return nil }
        if Double(text) != nil, !text.lowercased().contains("n") { return nil }
        if CalendarDate.seconds(text) != nil { return nil }
        if first.isLetter || first == "_" || first == "@" || first == "$" {
            var position = start + 1
            while position < end, isNameCharacter(characters, position) { position += 1 }
            if position == end { return nil }
            // A name then an operator (`area*2`, `a||b`): an expression, unless the rest is no
            // expression either (`UTC+01` is a time zone: a name, then a sign and digits).
            let rest = String(characters[position..<end])
            if let symbol = symbols.first(where: { rest.hasPrefix($0) }), symbol != "+" && symbol != "-" || !rest.dropFirst().allSatisfy(\.isNumber) {
                return nil
            }
        }
        if first == "-" || first == "+", start + 1 < end, isDigit(characters[start + 1]) || characters[start + 1] == "." {
            if Double(text) != nil { return nil }
        }
        return end
    }

    /// The end of a number whose thousands are grouped with commas (`1,000`, `12,345,678.5`:
    /// one to three digits, then groups of three), or nil; digits, a letter, a comma or a
    /// point right after it make it something else.
    static func groupedNumberEnd(_ characters: [Character], from start: Int) -> Int? {
        var end = start
        while end < characters.count, end - start < 4, isDigit(characters[end]) { end += 1 }
        guard end > start, end - start <= 3 else { return nil }
        var groups = 0
        while end + 3 < characters.count, characters[end] == ",", (1...3).allSatisfy({ isDigit(characters[end + $0]) }) {
            end += 4
            groups += 1
        }
        guard groups > 0 else { return nil }
        if end + 1 < characters.count, characters[end] == ".", isDigit(characters[end + 1]) {
            end += 1
            while end < characters.count, isDigit(characters[end]) { end += 1 }
        }
        if end < characters.count, isNameCharacter(characters, end) || characters[end] == "," { return nil }
        return end
    }

    /// A number (`12`, `0.5`, `1e6`), a date (`2024-06-30`, `2014-12-10T16:36:50.509Z`), or
    /// digits run into letters (`19BBY`: text). Returns where it ends.
    private static func numberOrDate(_ characters: [Character], from start: Int,
                                     add: (ExpressionToken.Kind, Int, Int, String?) -> Void) -> Int {
        // A date: digits, dashes, colons, T, Z, dots, a signed offset.
        var end = start
        while end < characters.count, isDigit(characters[end]) || "-:.TZ+".contains(characters[end]) { end += 1 }
        if end - start >= 10, let seconds = CalendarDate.seconds(String(characters[start..<end])) {
            add(.date(seconds), start, end, nil)
            return end
        }
        end = start
        while end < characters.count, isDigit(characters[end]) { end += 1 }
        if end < characters.count, characters[end] == "." { end += 1; while end < characters.count, isDigit(characters[end]) { end += 1 } }
        if end < characters.count, characters[end] == "e" || characters[end] == "E" {
            var exponent = end + 1
            if exponent < characters.count, characters[exponent] == "+" || characters[exponent] == "-" { exponent += 1 }
            if exponent < characters.count, isDigit(characters[exponent]) {
                end = exponent
                while end < characters.count, isDigit(characters[end]) { end += 1 }
            }
        }
        if end < characters.count, characters[end].isLetter || characters[end] == "_" {
            while end < characters.count, isNameCharacter(characters, end) { end += 1 }
            add(.text, start, end, nil)
            return end
        }
        let text = String(characters[start..<end])
        add(.number(Double(text) ?? .nan), start, end, text)
        return end
    }
}
