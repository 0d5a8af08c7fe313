/// Splits a line into statements and words.
///
/// The rules are a small shell's: statements end at `;` outside quotes; words split on
/// whitespace; `"..."` and `'...'` quote (a backslash escapes `"` and `\` inside double quotes,
/// nothing inside single quotes); outside quotes `\` escapes the next character; `#` at the
/// start of a word comments out the rest of the line, unless a digit follows (`show #3`).
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

    init(_ line: String) { characters = Array(line) }

    mutating func run(stopAtEnd: Bool) throws(TokenizeError) {
        var index = 0
        var word: Word?
        var wordStart = 0

        func finishWord(_ statements: inout [Statement], _ word: inout Word?) {
            if let finished = word { statements[statements.count - 1].words.append(finished) }
            word = nil
        }

        while index < characters.count {
            let character = characters[index]
            switch character {
            case " ", "\t", "\n", "\r":
                finishWord(&statements, &word)
                index += 1
            case ";":
                finishWord(&statements, &word)
                statements.append(Statement(words: []))
                index += 1
            case "#" where word == nil && !(index + 1 < characters.count && characters[index + 1].isASCII && characters[index + 1].isNumber):
                // A comment, except `#3`: a row of the last listing.
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
            case "\"", "'":
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
            default:
                if word == nil { word = Word("", column: index + 1); wordStart = index }
                word!.text.append(character)
                index += 1
            }
        }
        if stopAtEnd, let word {
            openWord = word
            openWordStart = wordStart
            return
        }
        finishWord(&statements, &word)
    }
}
