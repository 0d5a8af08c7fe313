/// One word of a command line, after quotes and escapes are resolved.
public struct Word: Equatable, Sendable, CustomStringConvertible {
    /// The text with quotes removed and escapes applied.
    public var text: String
    /// Whether any part of the word was quoted or escaped. A quoted `and` or `=`
    /// is a value, never an operator.
    public var isQuoted: Bool
    /// 1-based column (in characters) of the word's first character in its line, for error messages.
    public var column: Int

    public init(_ text: String, isQuoted: Bool = false, column: Int = 1) {
        self.text = text
        self.isQuoted = isQuoted
        self.column = column
    }

    public var description: String { text }
}

/// The words of one command: a line holds one or more, separated by `;`.
public struct Statement: Equatable, Sendable {
    public var words: [Word]
    public init(words: [Word]) { self.words = words }
}
