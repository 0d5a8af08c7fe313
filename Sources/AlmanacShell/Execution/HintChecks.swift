import AlmanacCore
import Foundation

/// Which history lines a hint should pass over because they are a `filter` that would leave
/// none of the current results: told only when cheap — the results in memory, the filter
/// answered within a few milliseconds, a few lines per key — and remembered until the next
/// command changes the results. A table in a database is not asked (a query per key).
struct HintChecks {
    private var known: [String: Bool] = [:]
    /// How long one line's filter may take before it is offered unchecked.
    static let seconds = 0.015
    /// How many lines not yet known one key may check.
    static let perKey = 3
    private var checkedThisKey = 0

    /// Whether `line` is a filter that would find nothing among `session`'s current results.
    mutating func findsNothing(_ line: String, in session: Session) -> Bool {
        if let answer = known[line] { return answer }
        guard let expression = Self.filter(in: line) else { return false }
        guard checkedThisKey < Self.perKey, let results = session.completionSource().inMemory else { return false }
        checkedThisKey += 1
        let deadline = Date().addingTimeInterval(Self.seconds)
        let empty = (try? Filter.run(expression, on: results, cancellation: Cancellation { Date() > deadline }).isEmpty) ?? false
        known[line] = empty
        return empty
    }

    /// Starts a key's checks (the lines one hint looks at).
    mutating func startKey() { checkedThisKey = 0 }

    /// The condition of a line that is one `filter` command (not `filter clear`).
    static func filter(in line: String) -> FilterExpression? {
        guard let statements = try? Tokenizer.statements(in: line), statements.count == 1 else { return nil }
        let words = statements[0].words
        guard words.count >= 2, !words[0].isQuoted, words[0].text.lowercased() == "filter" else { return nil }
        let arguments = words.dropFirst()
        if arguments.count == 1, arguments.first?.text.lowercased() == "clear" { return nil }
        return try? FilterExpression.parse(FilterExpression.tokens(arguments.map { ($0.text, $0.isQuoted) }))
    }
}
