import AlmanacCore

/// The statement being completed: the finished words and the fragment under the cursor.
public struct CompletionRequest: Sendable {
    /// Finished words, the command name first.
    public var words: [Word]
    /// The unquoted text typed so far of the word being completed.
    public var fragment: String

    public init(words: [Word], fragment: String) {
        self.words = words
        self.fragment = fragment
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
}

/// One completion: the text to insert (quoted by the completer when needed).
public struct CompletionCandidate: Hashable, Sendable {
    public var text: String
    /// Whether a finished completion is followed by a space (not after a directory's `/`).
    public var appendSpace: Bool

    public init(_ text: String, appendSpace: Bool = true) {
        self.text = text
        self.appendSpace = appendSpace
    }
}
