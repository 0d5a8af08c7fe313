import AlmanacCore

/// Completion and colours inside expressions: field names and function names (a function
/// completes with its `(`), the part of a word after an operator or a parenthesis completed on
/// its own (`lower(na` → `lower(name`), a field's values after a comparison.
enum ExpressionCompletion {
    /// Fields and, for a name begun, functions — for the word being typed, whose text before
    /// its last operator or parenthesis is kept (`log10(population/ar` → `…/area`).
    static func names(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        let (kept, name) = request.isQuoted ? ("", request.fragment) : split(request.fragment)
        var inner = request
        inner.fragment = name
        // Inside a call's open parenthesis the word goes on (`log10(population`): no space after it.
        let inCall = kept.filter { $0 == "(" }.count > kept.filter { $0 == ")" }.count
        var candidates = CompletionSources.fields(inner, in: session).map { CompletionCandidate(kept + $0.text, appendSpace: $0.appendSpace && !inCall) }
        if !name.isEmpty {
            candidates += inner.matching(ExpressionFunction.names).map { CompletionCandidate(kept + $0.text + "(", appendSpace: false) }
        }
        return candidates
    }

    /// The fragment's text up to and including its last character that ends a name, and the rest.
    static func split(_ fragment: String) -> (kept: String, name: String) {
        guard let index = fragment.lastIndex(where: { "()*/%+,=<>~!|".contains($0) }) else { return ("", fragment) }
        let next = fragment.index(after: index)
        return (String(fragment[..<next]), String(fragment[next...]))
    }

    /// The roles of an expression's words: fields, functions (an unknown one red), operators,
    /// keywords, numbers, text. Bare words on the right of a comparison are values.
    /// `groupedNumbers`: a filter's (`1,000,000` is one number; see `ExpressionTokens.tokens`).
    static func roles(of arguments: [Word], keywords: Set<String> = ["asc", "desc"], groupedNumbers: Bool = false) -> [ArgumentRole] {
        let tokens = ExpressionTokens.tokens(arguments.map { ($0.text, $0.isQuoted) }, groupedNumbers: groupedNumbers)
        var roles: [ArgumentRole] = []
        var afterAs = false
        for (index, token) in tokens.enumerated() {
            let previous = index > 0 ? tokens[index - 1] : nil
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            let role: WordRole
            switch token.kind {
            case .number, .date: role = .number
            case .text: role = token.isQuoted ? .string : .plain
            case .symbol, .comma: role = .operator
            case .open, .close: role = .keyword
            case .word:
                let lowered = token.text.lowercased()
                if afterAs {
                    role = .plain
                } else if next?.kind == .open {
                    role = ExpressionFunction.named(lowered) != nil || Aggregate.Function(rawValue: lowered) != nil ? .keyword : .unknownFunction
                } else if ["and", "or", "not", "is", "null", "true", "false", "as"].contains(lowered) || keywords.contains(lowered) {
                    role = .keyword
                } else if let previous, previous.isSymbol, ExpressionTokens.comparisonSymbols.contains(previous.text),
                          next.map({ !($0.isSymbol && ArithmeticOperator(rawValue: $0.text) != nil) }) ?? true {
                    role = .plain
                } else if Aggregate.Function(rawValue: lowered) != nil, let next, next.kind == .word {
                    role = .keyword
                } else {
                    role = .field
                }
            }
            afterAs = token.kind == .word && token.text.lowercased() == "as"
            roles.append(ArgumentRole(word: token.word, characters: token.isQuoted ? nil : token.characters, role: role))
        }
        return roles
    }
}
