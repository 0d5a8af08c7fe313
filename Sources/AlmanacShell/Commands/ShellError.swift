import AlmanacCore

/// Errors the command language reports, each worded for the person at the prompt.
public enum ShellError: Error, Equatable, CustomStringConvertible {
    case unknownCommand(String, suggestion: String?)
    case usage(problem: String?, usage: String)
    case invalid(String)
    case syntax(TokenizeError)
    /// An error about one word of the line: at the prompt a caret points at it (sqlite's shell).
    indirect case at(column: Int, width: Int, ShellError)

    /// `unknown dataset 'contries' — did you mean 'countries'?`
    public static func unknownDataset(_ name: String, among names: [String]) -> ShellError {
        .invalid("unknown dataset '\(SafeText.escape(name))'"
            + (Suggestion.closest(to: name, among: names).map { " — did you mean '\($0)'?" } ?? " — 'datasets' lists them"))
    }

    /// This error pointed at `words` of the line (from the first one's start to the last one's end).
    public func pointing(at words: [Word]) -> ShellError {
        guard let first = words.first, let last = words.last else { return self }
        let end = last.column + TextWidth.of(last.text) + (last.isQuoted ? 2 : 0)
        return .at(column: first.column, width: max(1, end - first.column), self)
    }

    public var description: String {
        switch self {
        case let .unknownCommand(name, suggestion):
            let shown = SafeText.escape(name)
            if let suggestion { return "unknown command '\(shown)' — did you mean '\(suggestion)'?" }
            return "unknown command '\(shown)' — type 'help' for the list"
        case let .usage(problem, usage):
            if let problem { return "\(problem) — usage: \(usage)" }
            return "usage: \(usage)"
        case let .invalid(message):
            return message
        case let .syntax(error):
            return error.description
        case let .at(_, _, error):
            return error.description
        }
    }
}
