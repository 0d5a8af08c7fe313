/// Splits a line into statements and words.
///
/// The rules are a small shell's: statements end at `;` outside quotes; words split on
/// whitespace; `"..."` and `'...'` quote (a backslash escapes `"` and `\` inside double quotes,
/// nothing inside single quotes) — but a quote right after a letter or digit is part of the
/// word (`d'Ivoire`, `Yoda's`); outside quotes `\` escapes the next character; `#` at the
/// start of a word comments out the rest of the line, unless a digit follows (`show #3`).
/// A quote touching `(`, `)` or an operator (or a `,` inside a call's parentheses) quotes only
/// its text (`replace(name,'a','b')`, `trim(' x ')`): the punctuation stays the expression's.
public enum Tokenizer {
    public static func statements(in line: String) throws(TokenizeError) -> [Statement] {
        var scanner = Scanner(line)
        try scanner.run(stopAtEnd: false)
        return scanner.statements.filter { !$0.words.isEmpty }
    }

    /// Tokenizes the text before the cursor for completion: never fails; an open quote
    /// or a trailing word is reported as the word being completed.
    public static func partial(_ text: String) -> PartialLine {
        var scanner = Scanner(text)
        try? scanner.run(stopAtEnd: true)
        let current = scanner.statements.last ?? Statement(words: [])
        return PartialLine(
            words: current.words,
            fragment: scanner.openWord.map { $0.text } ?? "",
            fragmentStart: scanner.openWordStart ?? text.count,
            openQuote: scanner.openQuote
        )
    }

    /// Where each word, separator and comment of `line` lies, for drawing the line in colour
    /// as it is typed: never fails; an unfinished quote is reported as such.
    public static func layout(of line: String) -> LineLayout {
        var scanner = Scanner(line)
        scanner.recordsLayout = true
        try? scanner.run(stopAtEnd: true)
        var pieces = scanner.pieces
        if let word = scanner.openWord, let start = scanner.openWordStart {
            let range = start..<scanner.characters.count
            pieces.append(scanner.openQuote != nil
                ? .unclosedQuote(range)
                : .word(word, range, statement: scanner.statements.count - 1))
        }
        return LineLayout(pieces: pieces, statements: scanner.statements)
    }
}

/// The parts of a line and where they are (offsets in characters), in order.
public struct LineLayout: Sendable {
    public enum Piece: Equatable, Sendable {
        /// A word of statement `statement` (0-based, counting every `;`).
        case word(Word, Range<Int>, statement: Int)
        case separator(Int)
        case comment(Range<Int>)
        /// A word whose quote is still open, to the end of the line.
        case unclosedQuote(Range<Int>)
    }

    public var pieces: [Piece]
    /// The statements' finished words (empty statements kept, so `statement` indexes them).
    public var statements: [Statement]
}

/// What completion needs to know about a half-typed statement.
public struct PartialLine: Equatable, Sendable {
    /// The finished words of the statement the cursor is in.
    public var words: [Word]
    /// The unquoted text of the word under the cursor (empty after a space).
    public var fragment: String
    /// Offset, in characters from the start of the text, where the word under the cursor starts
    /// (its opening quote included): completion replaces from here to the cursor.
    public var fragmentStart: Int
    /// The quote left open, if the cursor is inside one.
    public var openQuote: Character?
}

public enum TokenizeError: Error, Equatable, CustomStringConvertible {
    case unterminatedQuote(Character, column: Int)
    case danglingEscape(column: Int)

    public var description: String {
        switch self {
        case let .unterminatedQuote(quote, column):
            return "unterminated \(quote == "\"" ? "double" : "single") quote starting at column \(column)"
        case let .danglingEscape(column):
            return "a backslash at column \(column) ends the line with nothing to escape"
        }
    }
}

private struct Scanner {
    let characters: [Character]
    var statements: [Statement] = [Statement(words: [])]
    var openWord: Word?
    var openWordStart: Int?
    var openQuote: Character?
    /// Set for `Tokenizer.layout`: each finished word, separator and comment goes into `pieces`.
    var recordsLayout = false
    var pieces: [LineLayout.Piece] = []

    init(_ line: String) { characters = Array(line) }

    /// Whether a quote at `index` comes right after a letter or digit of the word being read.
    static func isInsideWord(_ word: Word?, before index: Int, in characters: [Character]) -> Bool {
        word != nil && index > 0 && (characters[index - 1].isLetter || characters[index - 1].isNumber)
    }

    /// Punctuation of an expression that a quoted text may touch without a space.
    static let operatorCharacters: Set<Character> = ["=", "<", ">", "~", "!", "|", "+", "*", "%"]

    /// Whether a quote at `index` opens a text of its own rather than continuing the word before
    /// it: right after `(` (`trim(' x ')`) or an operator (`name||'!'`), or after a `,` inside a
    /// call (`replace(name,'a','b')`), so the expression's punctuation stays outside the text.
    static func opensOwnWord(_ word: Word?, before index: Int, in characters: [Character], depth: Int) -> Bool {
        guard word != nil, index > 0 else { return false }
        let before = characters[index - 1]
        return before == "(" || operatorCharacters.contains(before) || depth > 0 && before == ","
    }

    /// Whether the character after a closing quote at `index` ends the quoted word: a `)` or an
    /// operator (`'b')`, `'<'||name`), or a `,` inside a call (`'a','b'`) — punctuation, not
    /// more of the text (outside a call `"a b","c d"` stays one word).
    static func endsQuotedWord(at index: Int, in characters: [Character], depth: Int) -> Bool {
        guard index < characters.count else { return false }
        let next = characters[index]
        return next == ")" || operatorCharacters.contains(next) || depth > 0 && next == ","
    }

    mutating func run(stopAtEnd: Bool) throws(TokenizeError) {
        var index = 0
        var word: Word?
        var wordStart = 0
        /// Where the last quote closed: a comma right after it, ending the word, is punctuation.
        var closedQuote = -1
        /// Parentheses open outside quotes in this statement: inside a call, quotes touching its
        /// punctuation quote only their text.
        var depth = 0

        func finishWord(_ scanner: inout Scanner, _ word: inout Word?) {
            if let finished = word {
                scanner.statements[scanner.statements.count - 1].words.append(finished)
                if scanner.recordsLayout {
                    scanner.pieces.append(.word(finished, wordStart..<index, statement: scanner.statements.count - 1))
                }
            }
            word = nil
        }

        while index < characters.count {
            let character = characters[index]
            switch character {
            case " ", "\t", "\n", "\r":
                finishWord(&self, &word)
                index += 1
            case ";":
                finishWord(&self, &word)
                if recordsLayout { pieces.append(.separator(index)) }
                statements.append(Statement(words: []))
                depth = 0
                index += 1
            case "#" where word == nil && !(index + 1 < characters.count && characters[index + 1].isASCII && characters[index + 1].isNumber):
                // A comment, except `#3`: a row of the last listing.
                if recordsLayout { pieces.append(.comment(index..<characters.count)) }
                index = characters.count
            case "\\":
                if word == nil { word = Word("", column: index + 1); wordStart = index }
                guard index + 1 < characters.count else {
                    if stopAtEnd { openWord = word; openWordStart = wordStart; return }
                    throw .danglingEscape(column: index + 1)
                }
                word!.text.append(characters[index + 1])
                word!.isQuoted = true
                index += 2
            case "\"" where Self.isInsideWord(word, before: index, in: characters),
                 "'" where Self.isInsideWord(word, before: index, in: characters):
                // After a letter or digit a quote is part of the word: d'Ivoire, Yoda's, 5'11".
                word!.text.append(character)
                index += 1
            case "\"", "'":
                if Self.opensOwnWord(word, before: index, in: characters, depth: depth) { finishWord(&self, &word) }
                if word == nil { word = Word("", column: index + 1); wordStart = index }
                word!.isQuoted = true
                let quote = character
                let opened = index
                index += 1
                var closed = false
                while index < characters.count {
                    let inner = characters[index]
                    if inner == quote { closed = true; index += 1; break }
                    if quote == "\"", inner == "\\", index + 1 < characters.count,
                       characters[index + 1] == "\"" || characters[index + 1] == "\\" {
                        word!.text.append(characters[index + 1])
                        index += 2
                        continue
                    }
                    word!.text.append(inner)
                    index += 1
                }
                if !closed {
                    if stopAtEnd { openWord = word; openWordStart = wordStart; openQuote = quote; return }
                    throw .unterminatedQuote(quote, column: opened + 1)
                }
                closedQuote = index - 1
                if Self.endsQuotedWord(at: index, in: characters, depth: depth) { finishWord(&self, &word) }
            case "," where word != nil && closedQuote == index - 1
                && (index + 1 == characters.count || " \t\n\r;".contains(characters[index + 1])):
                // `describe 'quoted field', other`: the comma after the quote separates, as it
                // would after a word without quotes, and is a word of its own.
                finishWord(&self, &word)
                word = Word(",", column: index + 1)
                wordStart = index
                index += 1
            default:
                if word == nil { word = Word("", column: index + 1); wordStart = index }
                word!.text.append(character)
                if character == "(" { depth += 1 } else if character == ")" { depth = max(0, depth - 1) }
                index += 1
            }
        }
        if stopAtEnd, let word {
            openWord = word
            openWordStart = wordStart
            return
        }
        finishWord(&self, &word)
    }
}
