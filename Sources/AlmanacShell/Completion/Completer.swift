import AlmanacCore

/// The one completion provider: command names for the first word, and for later words
/// whatever the command declares.
public struct Completer {
    public init() {}

    /// What to do with a TAB: replace the characters from `replaceFrom` to the cursor with
    /// `insertion` (empty when there is nothing to add), and the candidates to list on a second TAB.
    public struct Result: Equatable, Sendable {
        public var replaceFrom: Int
        public var insertion: String?
        public var candidates: [CompletionCandidate]
    }

    public func complete(_ textBeforeCursor: String, in session: Session) -> Result {
        let line = Tokenizer.partial(textBeforeCursor)
        let request = CompletionRequest(words: line.words, fragment: line.fragment, isQuoted: line.openQuote != nil)
        let candidates: [CompletionCandidate]
        if line.words.isEmpty {
            candidates = request.matching(session.commands.commands.map { $0.spec.name })
        } else if let command = session.commands.lookup(line.words[0].text) {
            candidates = command.complete(request, in: session)
        } else {
            candidates = []
        }
        let unique = Self.unique(candidates)
        // A whole name typed as several words is replaced whole.
        if let replacing = unique.first?.replacing, unique.allSatisfy({ $0.replacing == replacing }) {
            return Result(replaceFrom: replacing.from, insertion: Self.insertion(for: unique, typed: replacing.typed, openQuote: nil),
                          candidates: unique)
        }
        return Result(
            replaceFrom: line.fragmentStart,
            insertion: Self.insertion(for: unique, typed: line.fragment, openQuote: line.openQuote),
            candidates: unique
        )
    }

    private static func unique(_ candidates: [CompletionCandidate]) -> [CompletionCandidate] {
        var seen = Set<String>()
        return candidates.filter { seen.insert($0.text).inserted }
    }

    /// One candidate: all of it, quoted when needed, then a space. Several: their longest
    /// common prefix when it adds to what was typed (compared without case and diacritics) —
    /// never for names found by likeness, which do not start with it (a second TAB lists them).
    static func insertion(for candidates: [CompletionCandidate], typed: String, openQuote: Character?) -> String? {
        guard let first = candidates.first else { return nil }
        if candidates.count == 1 {
            return quoted(first.text, close: true, openQuote: openQuote) + (first.appendSpace ? " " : "")
        }
        let prefix = commonPrefix(candidates.map(\.text))
        let (foldedPrefix, foldedTyped) = (Folding.fold(prefix), Folding.fold(typed))
        guard foldedPrefix.count > foldedTyped.count, foldedPrefix.hasPrefix(foldedTyped) else { return nil }
        return quoted(prefix, close: false, openQuote: openQuote)
    }

    /// The longest prefix all share, compared folded; the text is the first candidate's.
    static func commonPrefix(_ texts: [String]) -> String {
        guard var prefix = texts.first.map(Array.init) else { return "" }
        for text in texts.dropFirst() {
            let other = Array(text)
            var length = 0
            while length < prefix.count, length < other.count,
                  Folding.fold(String(prefix[length])) == Folding.fold(String(other[length])) {
                length += 1
            }
            prefix = Array(prefix[..<length])
        }
        return String(prefix)
    }

    /// `text` as one word: bare when it can be, else in double quotes with `"` and `\` escaped.
    /// A prefix of several candidates leaves its quote open so typing can continue inside it.
    public static func quoted(_ text: String, close: Bool, openQuote: Character? = nil) -> String {
        let special: Set<Character> = [" ", "\t", "\"", "'", "\\", ";", "#"]
        guard openQuote != nil || text.contains(where: special.contains) || text.isEmpty && close else { return text }
        if openQuote == "'", !text.contains("'") { return "'" + text + (close ? "'" : "") }
        var body = ""
        for character in text {
            if character == "\"" || character == "\\" { body.append("\\") }
            body.append(character)
        }
        return "\"" + body + (close ? "\"" : "")
    }
}
