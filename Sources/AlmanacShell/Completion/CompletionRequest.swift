import AlmanacCore

/// The statement being completed: the finished words and the fragment under the cursor.
public struct CompletionRequest: Sendable {
    /// Finished words, the command name first.
    public var words: [Word]
    /// The unquoted text typed so far of the word being completed.
    public var fragment: String
    /// Whether the fragment is inside a quote left open (`"Москва (Ор`): its text is one
    /// literal, never operators or parentheses of an expression.
    public var isQuoted: Bool

    public init(words: [Word], fragment: String, isQuoted: Bool = false) {
        self.words = words
        self.fragment = fragment
        self.isQuoted = isQuoted
    }

    /// Finished argument words (after the command name).
    public var arguments: [Word] { Array(words.dropFirst()) }

    /// The candidates of `choices` that start with the fragment, ignoring case and diacritics.
    /// (Names found by likeness, which do not, are made candidates directly.)
    public func matching(_ choices: some Sequence<String>, appendSpace: Bool = true) -> [CompletionCandidate] {
        let folded = Folding.fold(fragment)
        return choices.filter { folded.isEmpty || Folding.fold($0).hasPrefix(folded) }
            .map { CompletionCandidate($0, appendSpace: appendSpace) }
    }

    /// As `matching`, and when nothing starts with the fragment, the choices whose beginning is
    /// one or two edits from it (`popluation` → population), as record names complete.
    public func matchingForgivingly(_ choices: [String]) -> [CompletionCandidate] {
        let exact = matching(choices)
        let typed = Array(Folding.fold(fragment))
        let limit = NameIndex.editLimit(forLength: typed.count)
        guard exact.isEmpty, limit > 0 else { return exact }
        var best: (distance: Int, names: [String]) = (limit + 1, [])
        for choice in choices {
            let folded = Array(Folding.fold(choice))
            // The field is still being typed: compare with its beginning, and with all of it.
            let distance = min(Suggestion.editDistance(typed, Array(folded.prefix(typed.count))),
                               Suggestion.editDistance(typed, folded))
            if distance < best.distance { best = (distance, [choice]) } else if distance == best.distance { best.names.append(choice) }
        }
        return best.names.map { CompletionCandidate($0) }
    }

    /// The request for a name of several words typed without quotes (`show united k`): the
    /// fragment is the words so far and the one being typed, and what completes them replaces
    /// them all, from the first (`replacing`).
    func continuing(_ given: [Word]) -> (request: CompletionRequest, replacing: CompletionCandidate.Replacement)? {
        guard let first = given.first, !given.contains(where: \.isQuoted) else { return nil }
        var request = self
        request.fragment = (given.map(\.text) + [fragment]).joined(separator: " ")
        return (request, CompletionCandidate.Replacement(from: first.column - 1, typed: request.fragment))
    }
}

/// One completion: the text to insert (quoted by the completer when needed).
public struct CompletionCandidate: Hashable, Sendable {
    public var text: String
    /// Whether a finished completion is followed by a space (not after a directory's `/`).
    public var appendSpace: Bool
    /// Set when the candidate replaces more than the word being typed: a whole name typed as
    /// several words without quotes (`show united k` → `show "United Kingdom of …"`).
    public var replacing: Replacement?

    public struct Replacement: Hashable, Sendable {
        /// Where the words it replaces start on the line (0-based, in characters).
        public var from: Int
        /// What they say, joined by spaces.
        public var typed: String
    }

    /// How many records of the results have this value (listed beside it, never inserted).
    public var count: Int?

    public init(_ text: String, appendSpace: Bool = true, count: Int? = nil) {
        self.text = text
        self.appendSpace = appendSpace
        self.count = count
    }

    /// As a list of candidates shows it: `Europe (53)`.
    public var listed: String { count.map { "\(text) (\($0.grouped))" } ?? text }
}
