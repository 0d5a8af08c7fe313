import AlmanacCore

/// One value given for a declared parameter.
public struct ArgumentValue: Sendable, Equatable {
    /// The word as typed; its column points an error at it.
    public var word: Word
    /// The number, for a `.number` parameter given one.
    public var number: Int?
    /// The item's suffix (`desc`), lower-cased.
    public var suffix: String?

    public var text: String { word.text }
}

/// The values given for a command's declared parameters, in the order they are declared.
public struct ParsedArguments: Sendable {
    public var values: [[ArgumentValue]]

    public subscript(_ index: Int) -> [ArgumentValue] { values[index] }
}

extension Arguments {
    /// The words read against the command's declared parameters; a word that does not fit is
    /// an error pointing at it.
    public func parse() throws(ShellError) -> ParsedArguments {
        let parameters = spec.parameters ?? []
        let tokens = Self.tokens(words)
        var index = 0
        var values: [[ArgumentValue]] = []
        func next() -> Word? { index < tokens.count && !tokens[index].isComma ? tokens[index].word : nil }
        for (position, parameter) in parameters.enumerated() {
            var taken: [ArgumentValue] = []
            if let word = next() {
                taken.append(try value(of: word, for: parameter))
                index += 1
                while parameter.isList {
                    if !parameter.suffixes.isEmpty, let word = next(), !word.isQuoted, parameter.suffixes.contains(word.text.lowercased()) {
                        taken[taken.count - 1].suffix = word.text.lowercased()
                        index += 1
                    }
                    if index < tokens.count, tokens[index].isComma {
                        let comma = tokens[index].word
                        index += 1
                        guard let word = next() else { throw usageError("a \(parameter.name) is missing after the comma", at: comma) }
                        taken.append(try value(of: word, for: parameter))
                        index += 1
                    } else if parameter.suffixes.isEmpty, position == parameters.count - 1, let word = next() {
                        // Spaces may stand for commas when nothing else can follow.
                        taken.append(try value(of: word, for: parameter))
                        index += 1
                    } else {
                        break
                    }
                }
            } else if parameter.isRequired {
                if index < tokens.count { throw usageError("missing \(parameter.name) before the comma", at: tokens[index].word) }
                throw usageError("missing \(parameter.name)", after: words.last)
            }
            values.append(taken)
        }
        if index < tokens.count {
            let word = tokens[index].word
            let hint = parameters.last.map { $0.isList && !$0.suffixes.isEmpty } == true
                ? " — after a \(parameters.last!.name) comes \(parameters.last!.suffixes.joined(separator: " or ")) or a comma" : ""
            throw usageError("unexpected '\(SafeText.escape(word.text))'\(hint)", at: word)
        }
        return ParsedArguments(values: values)
    }

    /// A word checked against what the parameter takes.
    private func value(of word: Word, for parameter: Parameter) throws(ShellError) -> ArgumentValue {
        let shown = SafeText.escape(word.text)
        switch parameter.kind {
        case .field, .dataset:
            return ArgumentValue(word: word)
        case let .number(range, words):
            if let number = Int(word.text), range.contains(number) { return ArgumentValue(word: word, number: number) }
            if !word.isQuoted, words.contains(word.text.lowercased()) { return ArgumentValue(word: word) }
            let others = words.isEmpty ? "" : " or " + words.joined(separator: ", ")
            throw usageError("\(parameter.name) must be a whole number from \(range.lowerBound) to \(range.upperBound)\(others), not '\(shown)'", at: word)
        case let .word(words):
            if !word.isQuoted, words.contains(word.text.lowercased()) { return ArgumentValue(word: word) }
            throw usageError("expected \(words.joined(separator: " or ")), not '\(shown)'", at: word)
        }
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

    /// A word, or a comma between words, with its column.
    struct Token {
        var word: Word
        var isComma: Bool
    }

    /// The words with commas as tokens of their own (`name,` → `name` `,`); a quoted comma is text.
    static func tokens(_ words: [Word]) -> [Token] {
        var tokens: [Token] = []
        for word in words {
            guard !word.isQuoted, word.text.contains(",") else {
                tokens.append(Token(word: word, isComma: false))
                continue
            }
            var offset = 0
            for (index, part) in word.text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                if index > 0 { tokens.append(Token(word: Word(",", column: word.column + offset - 1), isComma: true)) }
                if !part.isEmpty { tokens.append(Token(word: Word(String(part), column: word.column + offset), isComma: false)) }
                offset += part.count + 1
            }
        }
        return tokens
    }
}

extension Parameter {
    /// The parameter the word being typed belongs to, and whether it is where an item's suffix
    /// may go, read from the finished words as `parse` reads them (leniently).
    static func position(of request: CompletionRequest, in parameters: [Parameter]) -> (parameter: Parameter, suffix: Bool)? {
        let tokens = Arguments.tokens(request.arguments)
        var index = 0
        var afterItem = false
        for (position, parameter) in parameters.enumerated() {
            guard index < tokens.count else { return (parameter, false) }
            afterItem = false
            if !tokens[index].isComma { index += 1; afterItem = true }
            while parameter.isList, index < tokens.count {
                if afterItem, !parameter.suffixes.isEmpty, !tokens[index].isComma, parameter.suffixes.contains(tokens[index].word.text.lowercased()) {
                    index += 1
                    afterItem = false
                } else if tokens[index].isComma {
                    index += 1
                    afterItem = false
                    if index == tokens.count { return (parameter, false) }
                    if !tokens[index].isComma { index += 1; afterItem = true }
                } else if parameter.suffixes.isEmpty, position == parameters.count - 1 {
                    index += 1
                    afterItem = true
                } else {
                    break
                }
            }
            if index == tokens.count {
                if parameter.isList { return (parameter, afterItem && !parameter.suffixes.isEmpty) }
                if position + 1 < parameters.count { return (parameters[position + 1], false) }
                return nil
            }
        }
        return nil
    }

    /// Candidates for the word being typed, from what the parameter takes.
    func candidates(_ request: CompletionRequest, suffix: Bool, in session: Session) -> [CompletionCandidate] {
        if suffix { return request.matching(suffixes) }
        switch kind {
        case .field: return CompletionSources.fields(request, in: session) + request.matching(words)
        case let .dataset(all): return CompletionSources.datasets(request, in: session, includingAll: all)
        case .number, .word: return request.matching(words)
        }
    }
}
