import AlmanacCore
import Foundation

/// A field's values after `filter FIELD = `, each with how many records have it under the
/// current results and the conditions joined to it by `and` (`filter region = Europe and
/// subregion = ` offers Europe's four subregions), most records first; inserted without the
/// count. Where counts cannot come quickly (a dataset still being read, a database slower than a
/// moment), the values alone, as before.
enum ValueCompletion {
    /// How long TAB waits for counts in memory before offering the values alone.
    static let countSeconds = 0.25
    /// Results in memory up to this many records are counted without a deadline.
    static let alwaysCounted = 20_000
    /// How many values with counts TAB lists at most.
    static let limit = 100_000

    /// How many values after `~` are each counted as a filter.
    static let containingLimit = 100

    /// `op`: the comparison typed before the value (`=`, `~`…).
    static func values(of field: String, after op: String = "=", where narrowing: FilterExpression?, _ request: CompletionRequest,
                       in session: Session) -> [CompletionCandidate] {
        let source = session.completionSource()
        let deadline = Date().addingTimeInterval(countSeconds)
        // A few thousand records in memory are counted whatever the machine's load: the
        // deadline is for millions.
        let small = (source.inMemory?.count ?? Int.max) <= alwaysCounted
        let budget = small ? Cancellation.never : Cancellation { Date() > deadline }
        if let counts = try? source.valueCounts(of: field, where: narrowing, prefix: request.fragment, limit: limit, quick: true,
                                                cancellation: budget) {
            guard op == FilterExpression.Operator.contains.rawValue else { return counts.map { CompletionCandidate($0.value, count: $0.count) } }
            return containing(counts.map(\.value), field: field, where: narrowing, in: source, cancellation: budget)
                ?? counts.map { CompletionCandidate($0.value) }
        }
        return CompletionSources.values(of: field, request, in: session)
    }

    /// After `~` each value with the records the completed filter keeps (`climate ~ arid` keeps
    /// `arid, temperate` too), counted by the same engine as the filter, most first; nil past
    /// `containingLimit` values or the time TAB has (then the values are offered alone).
    static func containing(_ values: [String], field: String, where narrowing: FilterExpression?, in source: any ResultsSource,
                           cancellation: Cancellation) -> [CompletionCandidate]? {
        guard values.count <= containingLimit else { return nil }
        var counted: [(value: String, count: Int)] = []
        for value in values {
            let condition = FilterExpression.comparison(field: field, op: .contains, value: value)
            guard var kept = try? source.applying(.filter(narrowing.map { .and($0, condition) } ?? condition), cancellation: cancellation),
                  let count = try? kept.count(fresh: false, cancellation: cancellation) else { return nil }
            counted.append((value, count))
        }
        // Most records first, equal counts by value.
        counted.sort { ($1.count, $0.value) < ($0.count, $1.value) }
        return counted.map { CompletionCandidate($0.value, count: $0.count) }
    }

    /// The conditions joined by `and` to the comparison being typed, from the tokens before its
    /// field: the records they keep are those whose values are offered. Nil when nothing
    /// narrows: the first condition, one after `or`, or words that do not parse yet.
    static func narrowing(_ tokens: [FilterToken]) -> FilterExpression? {
        var end = tokens.count
        // `and not subregion = `, `and (subregion = `: the conditions before still narrow.
        while end > 0, tokens[end - 1].is(.open) || tokens[end - 1].isKeyword("not") { end -= 1 }
        guard end > 0, tokens[end - 1].isKeyword("and") else { return nil }
        end -= 1
        // Back to the `or` or the unclosed parenthesis the chain of `and`s starts after.
        var start = 0
        var depth = 0
        for index in stride(from: end - 1, through: 0, by: -1) {
            let token = tokens[index]
            if token.is(.close) {
                depth += 1
            } else if token.is(.open) {
                if depth == 0 { start = index + 1; break }
                depth -= 1
            } else if depth == 0, token.isKeyword("or") {
                start = index + 1
                break
            }
        }
        guard start < end else { return nil }
        return try? FilterExpression.parse(Array(tokens[start..<end]))
    }
}

extension FilterToken {
    func `is`(_ kind: ExpressionToken.Kind) -> Bool { token?.kind == kind }
    func isKeyword(_ keyword: String) -> Bool { token?.isKeyword(keyword) ?? false }
}
