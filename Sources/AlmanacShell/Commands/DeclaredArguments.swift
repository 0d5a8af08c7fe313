import AlmanacCore

/// One value given for a declared parameter.
public struct ArgumentValue: Sendable, Equatable {
    /// The word as typed; its column points an error at it.
    public var word: Word
    /// The number, for a `.number` parameter given one.
    public var number: Int?
    /// The item's suffix (`desc`), lower-cased.
    public var suffix: String?
    /// The word before the item that says what to do with it: an aggregate's function
    /// (`sum` of `sum population`).
    public var qualifier: Word?

    public var text: String { word.text }
}

/// The values given for a command's declared parameters, read by the parameter itself (never by
/// its place, so reordering a declaration cannot change what a command reads).
public struct ParsedArguments: Sendable {
    let parameters: [Parameter]
    var values: [[ArgumentValue]]
    /// Each keyword parameter's keyword as typed, when given.
    var keywords: [Int: Word] = [:]

    /// The values given for `parameter` (one of the command's, told apart by name and keyword).
    public subscript(_ parameter: Parameter) -> [ArgumentValue] {
        parameters.firstIndex { $0.isSame(as: parameter) }.map { values[$0] } ?? []
    }

    /// The words of a free-text parameter joined by single spaces, as typed.
    public func text(_ parameter: Parameter) -> String { self[parameter].map(\.text).joined(separator: " ") }

    /// The keyword that introduced `parameter` (`key` of `key city`), for an error about the option itself.
    public func keyword(_ parameter: Parameter) -> Word? {
        parameters.firstIndex { $0.isSame(as: parameter) }.flatMap { keywords[$0] }
    }

    /// Whether a flag (or any parameter) was given.
    public func has(_ parameter: Parameter) -> Bool { !self[parameter].isEmpty }
}

extension Arguments {
    /// The words read against the command's declared parameters; a word that does not fit is
    /// an error pointing at it.
    public func parse() throws(ShellError) -> ParsedArguments {
        let parameters = spec.parameters ?? []
        var values = [[ArgumentValue]](repeating: [], count: parameters.count)
        // Keyword parameters take their words wherever they are; the others are given by place.
        let split = Self.split(words, by: parameters)
        for (index, keyword) in split.keywords.sorted(by: { $0.key < $1.key }) {
            let parameter = parameters[index]
            if case .flag = parameter.kind {
                values[index] = [ArgumentValue(word: keyword)]
                continue
            }
            guard !split.values[index].isEmpty else {
                throw usageError("missing \(parameter.name) after \(SafeText.escape(keyword.text))", after: keyword)
            }
            for word in split.values[index] { values[index].append(try value(of: word, for: parameter)) }
        }
        let placed = parameters.indices.filter { parameters[$0].keyword == nil }
        let taken = try parsePlaced(split.placed, placed.map { parameters[$0] })
        for (position, index) in placed.enumerated() { values[index] = taken[position] }
        for (index, parameter) in parameters.enumerated() where parameter.keyword != nil && parameter.isRequired && split.keywords[index] == nil {
            throw usageError("missing \(parameter.keyword!) \(parameter.name)", after: words.last)
        }
        return ParsedArguments(parameters: parameters, values: values, keywords: split.keywords)
    }

    /// The words given by their place, read against the parameters without keywords.
    private func parsePlaced(_ words: [Word], _ parameters: [Parameter]) throws(ShellError) -> [[ArgumentValue]] {
        let tokens = Self.tokens(words)
        var index = 0
        var values: [[ArgumentValue]] = []
        func next() -> Word? { index < tokens.count && !tokens[index].isComma ? tokens[index].word : nil }
        /// The value at `index`: free text is the word as typed, commas and all.
        func take(_ parameter: Parameter) throws(ShellError) -> ArgumentValue {
            let token = tokens[index]
            if case .text = parameter.kind, token.isStart {
                while index < tokens.count, tokens[index].origin == token.origin { index += 1 }
                return ArgumentValue(word: words[token.origin])
            }
            index += 1
            guard case .aggregate = parameter.kind else { return try value(of: token.word, for: parameter) }
            let function = token.word
            guard !function.isQuoted, Aggregate.Function(rawValue: function.text.lowercased()) != nil else {
                throw usageError("expected \(Self.either(parameter.words)), not '\(SafeText.escape(function.text))'", at: function)
            }
            guard let field = next() else { throw usageError("missing FIELD after \(function.text)", after: function) }
            index += 1
            return ArgumentValue(word: field, qualifier: function)
        }
        for (position, parameter) in parameters.enumerated() {
            var taken: [ArgumentValue] = []
            let isText = if case .text = parameter.kind { true } else { false }
            if parameter.takesWords, index < tokens.count, !tokens[index].isComma || tokens[index].isStart {
                // Free text: the rest of the words, as typed.
                let origin = tokens[index].origin
                taken = ([tokens[index].isStart ? words[origin] : tokens[index].word] + words[(origin + 1)...]).map { ArgumentValue(word: $0) }
                index = tokens.count
            } else if next() != nil || (isText && index < tokens.count && tokens[index].isStart) {
                taken.append(try take(parameter))
                while parameter.isList {
                    if !parameter.suffixes.isEmpty, let word = next(), !word.isQuoted, parameter.suffixes.contains(word.text.lowercased()) {
                        taken[taken.count - 1].suffix = word.text.lowercased()
                        index += 1
                    }
                    if index < tokens.count, tokens[index].isComma {
                        let comma = tokens[index].word
                        index += 1
                        guard next() != nil else { throw usageError("a \(parameter.name) is missing after the comma", at: comma) }
                        taken.append(try take(parameter))
                    } else if parameter.suffixes.isEmpty, next() != nil,
                              position == parameters.count - 1 || !Self.begins(parameters[position + 1], tokens, at: index) {
                        // Spaces may stand for commas where the word cannot begin what follows.
                        taken.append(try take(parameter))
                    } else {
                        break
                    }
                }
            } else if parameter.isRequired {
                if index < tokens.count { throw usageError("missing \(parameter.name) before the comma", at: tokens[index].word) }
                throw usageError("missing \(parameter.name)", after: self.words.last)
            }
            values.append(taken)
        }
        if index < tokens.count {
            let word = tokens[index].word
            let last = parameters.last
            let hint = last.map { $0.isList && !$0.suffixes.isEmpty } == true
                ? " — after a \(last!.name) comes \(last!.suffixes.joined(separator: " or ")) or a comma" : ""
            throw usageError("unexpected '\(SafeText.escape(word.text))'\(hint)", at: word)
        }
        return values
    }

    /// Whether the token at `index` begins the parameter: an aggregate is a function's name with
    /// a field after it; words and numbers are theirs; anything may begin a field or text.
    private static func begins(_ parameter: Parameter, _ tokens: [Token], at index: Int) -> Bool {
        let word = tokens[index].word
        switch parameter.kind {
        case .aggregate:
            return !word.isQuoted && Aggregate.Function(rawValue: word.text.lowercased()) != nil
                && index + 1 < tokens.count && !tokens[index + 1].isComma
        case .word, .number:
            return !word.isQuoted && (parameter.words + parameter.hidden).contains(word.text.lowercased())
                || Self.wholeNumber(word.text) != nil
        default:
            return true
        }
    }

    /// A word checked against what the parameter takes.
    private func value(of word: Word, for parameter: Parameter) throws(ShellError) -> ArgumentValue {
        let shown = SafeText.escape(word.text)
        let isWord = !word.isQuoted && (parameter.words + parameter.hidden).contains(word.text.lowercased())
        switch parameter.kind {
        case .field, .dataset, .text, .flag, .aggregate:
            return ArgumentValue(word: word)
        case let .number(range, words):
            if let number = Self.wholeNumber(word.text), range.contains(number) { return ArgumentValue(word: word, number: number) }
            if isWord { return ArgumentValue(word: word) }
            let others = words.isEmpty ? "" : " or " + words.joined(separator: ", ")
            throw usageError("\(parameter.name) must be a whole number\(Self.text(of: range))\(others), not '\(shown)'", at: word)
        case let .word(words):
            if isWord { return ArgumentValue(word: word) }
            throw usageError("expected \(words.joined(separator: " or ")), not '\(shown)'", at: word)
        }
    }

    /// ` from 1 to 200`, ` from 0 up`, or nothing when any number will do.
    private static func text(of range: ClosedRange<Int>) -> String {
        switch (range.lowerBound, range.upperBound) {
        case (Int.min, Int.max): ""
        case (let lower, Int.max): " from \(lower) up"
        case let (lower, upper): " from \(lower) to \(upper)"
        }
    }

    /// `5`, `+5`, `-3`; digits too many for an Int lean to its end on their side.
    static func wholeNumber(_ text: String) -> Int? {
        if let number = Int(text) { return number }
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return text.first == "-" ? Int.min : Int.max
    }

    /// `a`, `a or b`, `a, b or c`.
    static func either(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// A usage error pointing at `word` (a caret under it at the prompt).
    public func usageError(_ problem: String, at word: Word) -> ShellError {
        .at(column: word.column, width: max(1, TextWidth.of(word.text)), usageError(problem))
    }

    /// A usage error pointing just past `word`, where something is missing.
    func usageError(_ problem: String, after word: Word?) -> ShellError {
        guard let word else { return usageError(problem) }
        return .at(column: word.column + word.text.count + (word.isQuoted ? 2 : 0) + 1, width: 1, usageError(problem))
    }

    /// The words a parameter was given, split where keywords introduce theirs.
    struct KeywordSplit {
        /// The words given by their place.
        var placed: [Word] = []
        /// Each keyword parameter given, by its index: the keyword as typed.
        var keywords: [Int: Word] = [:]
        /// Each keyword parameter's words.
        var values: [[Word]]
        /// The keyword parameter that takes the next word, if any.
        var open: Int?
    }

    /// A keyword (unquoted, any case, the first time) starts its parameter; the words after it
    /// are its own — one, or up to the next keyword. A keyword that needs a value but is
    /// followed at once by another keyword, before any keyword, is a word given by its place
    /// instead (`load at from f.json` names a dataset `at`) while a parameter still takes one.
    static func split(_ words: [Word], by parameters: [Parameter]) -> KeywordSplit {
        var split = KeywordSplit(values: Array(repeating: [], count: parameters.count))
        let placedCount = parameters.count { $0.keyword == nil }
        func keywordIndex(_ word: Word) -> Int? {
            guard !word.isQuoted else { return nil }
            let lowered = word.text.lowercased()
            return parameters.indices.first { parameters[$0].keyword == lowered && split.keywords[$0] == nil }
        }
        for (position, word) in words.enumerated() {
            var keyword = keywordIndex(word)
            if let index = keyword, split.keywords.isEmpty, split.placed.count < placedCount, position + 1 < words.count,
               !parameters[index].isFlag, let following = keywordIndex(words[position + 1]), following != index {
                keyword = nil
            }
            if let index = keyword {
                split.keywords[index] = word
                split.open = if case .flag = parameters[index].kind { nil } else { index }
            } else if let open = split.open {
                split.values[open].append(word)
                if parameters[open].takesOneWord { split.open = nil }
            } else {
                split.placed.append(word)
            }
        }
        return split
    }

    /// A word, or a comma between words, with its column and the word it came from.
    struct Token {
        var word: Word
        var isComma: Bool
        /// Which word it is part of.
        var origin: Int
        /// Whether it starts that word.
        var isStart: Bool
        /// Whether it is an operator between an expression's operands.
        var isOperator: Bool { !isComma && Arguments.isOperator(word) }
    }

    /// The words with commas as tokens of their own (`name,` → `name` `,`); a quoted comma is text.
    /// `/`, `*`, `||`, `>=`…: a word that only joins the operands of an expression.
    static func isOperator(_ word: Word) -> Bool {
        !word.isQuoted && !word.text.isEmpty && word.text.allSatisfy { "+-*/%|=<>~!".contains($0) }
    }

    static func tokens(_ words: [Word]) -> [Token] {
        var tokens: [Token] = []
        for (origin, word) in words.enumerated() {
            guard !word.isQuoted, word.text.contains(",") else {
                tokens.append(Token(word: word, isComma: false, origin: origin, isStart: true))
                continue
            }
            var offset = 0
            for (index, part) in word.text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                if index > 0 {
                    tokens.append(Token(word: Word(",", column: word.column + offset - 1), isComma: true, origin: origin, isStart: offset == 1))
                }
                if !part.isEmpty {
                    tokens.append(Token(word: Word(String(part), column: word.column + offset), isComma: false, origin: origin, isStart: offset == 0))
                }
                offset += part.count + 1
            }
        }
        return tokens
    }
}
