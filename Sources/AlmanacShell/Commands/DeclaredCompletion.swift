import AlmanacCore

/// Completion from a command's declared parameters: the words read as `parse` reads them
/// (leniently), then what the parameter being typed takes, and the keywords that may come next.
extension Parameter {
    static func candidates(_ request: CompletionRequest, in parameters: [Parameter], session: Session) -> [CompletionCandidate] {
        let split = Arguments.split(request.arguments, by: parameters)
        // Keywords not given yet: flags any time, the others once the required ones before them are.
        let keywords = parameters.indices.compactMap { index -> String? in
            guard let keyword = parameters[index].keyword, split.keywords[index] == nil else { return nil }
            if case .flag = parameters[index].kind { return keyword }
            if let required = parameters[index].requires,
               let other = parameters.firstIndex(where: { $0.keyword == required }), split.keywords[other] == nil { return nil }
            let waiting = parameters[..<index].indices.contains { before in
                parameters[before].keyword != nil && parameters[before].isRequired && split.keywords[before] == nil
            }
            return waiting ? nil : keyword
        }
        if let open = split.open {
            let parameter = parameters[open]
            let given = split.values[open]
            let own = parameter.candidates(request, given: given, suffix: false, in: session)
            // Right after its keyword only its value; free text may end with the next keyword.
            return given.isEmpty || parameter.takesOneWord ? own : withKeywords(own, request.matching(keywords), request)
        }
        let placed = parameters.filter { $0.keyword == nil }
        guard let position = position(of: split.placed, in: placed) else { return request.matching(keywords) }
        var candidates = position.parameter.candidates(request, given: position.given, suffix: position.suffix, in: session)
        if let next = position.next { candidates += next.candidates(request, given: [], suffix: false, in: session) }
        // A required parameter not given yet comes before any keyword.
        if position.parameter.isRequired, position.given.isEmpty { return candidates }
        return withKeywords(candidates, request.matching(keywords), request)
    }

    /// A parameter's candidates, then the keywords the word being typed begins. A keyword
    /// outranks names only like what was typed: `near Norway w` completes within, rather than
    /// offering Norway (two edits from `Norway w`) again beside it.
    static func withKeywords(_ own: [CompletionCandidate], _ keywords: [CompletionCandidate],
                             _ request: CompletionRequest) -> [CompletionCandidate] {
        guard !keywords.isEmpty else { return own }
        let starting = own.filter { Folding.fold($0.text).hasPrefix(Folding.fold($0.replacing?.typed ?? request.fragment)) }
        return starting + keywords
    }

    /// Where the word being typed goes among the parameters given by place.
    struct Position {
        var parameter: Parameter
        /// Where an item's suffix (`desc`) may go.
        var suffix: Bool
        /// The words the parameter has so far.
        var given: [Word]
        /// The parameter after it, when spaces may separate its items and the word could begin that.
        var next: Parameter?
    }

    static func position(of words: [Word], in parameters: [Parameter]) -> Position? {
        let tokens = Arguments.tokens(words)
        var index = 0
        for (place, parameter) in parameters.enumerated() {
            let start = index
            func given() -> [Word] { tokens[start..<index].filter { !$0.isComma }.map(\.word) }
            if parameter.takesWords {
                return Position(parameter: parameter, suffix: false, given: index < tokens.count ? Array(words[tokens[index].origin...]) : [])
            }
            guard index < tokens.count else { return Position(parameter: parameter, suffix: false, given: []) }
            var afterItem = false
            if !tokens[index].isComma { index += 1; afterItem = true }
            while parameter.isList, index < tokens.count {
                if afterItem, !parameter.suffixes.isEmpty, !tokens[index].isComma, parameter.suffixes.contains(tokens[index].word.text.lowercased()) {
                    index += 1
                    afterItem = false
                } else if tokens[index].isComma {
                    index += 1
                    afterItem = false
                    if index == tokens.count { return Position(parameter: parameter, suffix: false, given: given()) }
                    if !tokens[index].isComma { index += 1; afterItem = true }
                } else if parameter.suffixes.isEmpty, place == parameters.count - 1 {
                    index += 1
                    afterItem = true
                } else if !parameter.suffixes.isEmpty, tokens[index].isOperator || !afterItem {
                    // `sort population / ar`: an item goes on past an operator, to its operand.
                    afterItem = !tokens[index].isOperator
                    index += 1
                } else {
                    break
                }
            }
            if index == tokens.count {
                let next = place + 1 < parameters.count ? parameters[place + 1] : nil
                if parameter.isList {
                    let spaced = afterItem && parameter.suffixes.isEmpty
                    return Position(parameter: parameter, suffix: afterItem && !parameter.suffixes.isEmpty, given: given(), next: spaced ? next : nil)
                }
                if let next { return Position(parameter: next, suffix: false, given: []) }
                return nil
            }
        }
        return nil
    }

    /// Candidates for the word being typed, from what the parameter takes; `given` are its
    /// words so far.
    func candidates(_ request: CompletionRequest, given: [Word], suffix: Bool, in session: Session) -> [CompletionCandidate] {
        if suffix { return request.matching(suffixes) }
        switch kind {
        case .field: return ExpressionCompletion.names(request, in: session) + (given.isEmpty ? request.matching(words) : [])
        case let .dataset(all, orFile):
            if orFile, request.fragment.contains("/") || request.fragment.hasPrefix("~") { return CompletionSources.files(request) }
            return CompletionSources.datasets(request, in: session, includingAll: all)
        case .number, .word: return request.matching(words)
        case .flag: return []
        case .aggregate:
            // After a function's name its field; else a function, or another field to group by.
            let last = request.arguments.last.flatMap { $0.isQuoted ? nil : $0.text.lowercased() }
            if let last, words.contains(last) { return CompletionSources.fields(request, in: session) }
            return request.matching(words) + CompletionSources.fields(request, in: session)
        case let .text(source, words):
            return (given.isEmpty ? request.matching(words) : []) + source.candidates(request, given: given, in: session)
        }
    }
}

extension Parameter.TextSource {
    func candidates(_ request: CompletionRequest, given: [Word], in session: Session) -> [CompletionCandidate] {
        switch self {
        case .nothing: []
        case .files: CompletionSources.files(request)
        case .recordNames: CompletionSources.recordNames(request, in: session)
        case .recordName: CompletionSources.wholeNames(given, request) { CompletionSources.recordNames($0, in: session) }
        case .commands: request.matching(session.commands.commands.map { $0.spec.name })
        case .watchedCommand: CompletionSources.watched(given, request, in: session)
        case .settings: request.matching(session.settingTable.names)
        case .settingValues: request.matching(session.settingTable.setting(request.arguments.first?.text ?? "")?.choices ?? [])
        case let .stations(direction):
            CompletionSources.wholeNames(given, request) { CompletionSources.stations(serving: direction, $0, in: session) }
        case .countries: CompletionSources.countries(request, in: session)
        case let .words(words): given.isEmpty ? request.matching(words) : []
        case let .unit(unit): given.count == 1 && Double(given[0].text) != nil ? request.matching([unit]) : []
        case .condition: CompletionSources.condition(given, request, in: session)
        case .datasetFields: CompletionSources.datasetFields(request, in: session)
        }
    }
}
