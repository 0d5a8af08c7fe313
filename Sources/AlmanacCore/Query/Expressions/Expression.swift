/// A computed value, parsed once from what was typed: `population / area`, `year(created)`,
/// `name =~ '^Un' and count(borders) = 0`. One grammar for every command (filter, sort,
/// columns, group, histogram, describe); `ExpressionBinder` checks it against a dataset's
/// fields, `ExpressionEvaluator` computes it over columns of rows, `ExpressionSQL` (in
/// AlmanacPostgres) writes it for a database.
public struct Expression: Sendable, Equatable, CustomStringConvertible {
    public indirect enum Node: Sendable, Equatable {
        /// A number as written (`1e6`, `0.5`).
        case number(Double, text: String)
        /// Text: quoted, or a bare word on the right of a comparison (`region = Europe`).
        case text(String, bare: Bool)
        /// `2024-06-30`, `2014-12-10T16:36:50Z`: seconds since 1970 (UTC).
        case date(Double, text: String)
        case boolean(Bool)
        case null
        /// A field path as typed (`population`, `currencies.code`).
        case field(String)
        case negate(Expression)
        case arithmetic(ArithmeticOperator, Expression, Expression)
        case comparison(ComparisonOperator, Expression, Expression)
        /// `x is null`, `x is not null`.
        case isNull(Expression, negated: Bool)
        case and(Expression, Expression)
        case or(Expression, Expression)
        case not(Expression)
        /// `lower(name)`: the name lower-cased as typed.
        case call(String, [Expression])
    }

    public var node: Node
    /// Where it was typed, for carets under the offending operand.
    public var span: ExpressionSpan

    public init(_ node: Node, span: ExpressionSpan = ExpressionSpan()) {
        self.node = node
        self.span = span
    }

    /// Spans are where, not what: two expressions typed differently are equal when they say the same.
    public static func == (left: Expression, right: Expression) -> Bool { left.node == right.node }

    /// Canonical text that parses back to the same expression (`population / area`).
    public var description: String { ExpressionText.text(of: self) }

    /// The field when the expression is only a field path.
    public var fieldName: String? {
        if case let .field(name) = node { return name }
        return nil
    }

    /// Every field path the expression names, in order, once each.
    public var fields: [String] {
        var found: [String] = []
        visit { if case let .field(name) = $0.node, !found.contains(name) { found.append(name) } }
        return found
    }

    /// Calls `body` on this node and every node below it, parents first.
    public func visit(_ body: (Expression) -> Void) {
        body(self)
        for child in children { child.visit(body) }
    }

    public var children: [Expression] {
        switch node {
        case .number, .text, .date, .boolean, .null, .field: []
        case let .negate(inner), let .not(inner), let .isNull(inner, _): [inner]
        case let .arithmetic(_, left, right), let .comparison(_, left, right), let .and(left, right), let .or(left, right): [left, right]
        case let .call(_, arguments): arguments
        }
    }

    /// The same expression with each field named in `names` replaced by its expression (a
    /// name given with `as` by an earlier command: `sort density desc`).
    public func substituting(_ names: [String: Expression]) -> Expression {
        var copy = self
        switch node {
        case let .field(name):
            if let replacement = names[name] { return replacement }
        case .number, .text, .date, .boolean, .null: break
        case let .negate(inner): copy.node = .negate(inner.substituting(names))
        case let .not(inner): copy.node = .not(inner.substituting(names))
        case let .isNull(inner, negated): copy.node = .isNull(inner.substituting(names), negated: negated)
        case let .arithmetic(op, left, right): copy.node = .arithmetic(op, left.substituting(names), right.substituting(names))
        case let .comparison(op, left, right): copy.node = .comparison(op, left.substituting(names), right.substituting(names))
        case let .and(left, right): copy.node = .and(left.substituting(names), right.substituting(names))
        case let .or(left, right): copy.node = .or(left.substituting(names), right.substituting(names))
        case let .call(name, arguments): copy.node = .call(name, arguments.map { $0.substituting(names) })
        }
        return copy
    }
}

public enum ArithmeticOperator: String, Sendable, CaseIterable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%", concatenate = "||"

    var precedence: Int {
        switch self {
        case .concatenate: 1
        case .add, .subtract: 2
        case .multiply, .divide, .remainder: 3
        }
    }
}

public enum ComparisonOperator: String, Sendable, CaseIterable {
    case equal = "=", notEqual = "!=", contains = "~", notContains = "!~"
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    /// A regular expression (ICU syntax; `(?i)` for case).
    case matches = "=~"

    /// `!=` and `!~` are true when no value matches (a list's elements; an absent value).
    var negation: ComparisonOperator? {
        switch self {
        case .notEqual: .equal
        case .notContains: .contains
        default: nil
        }
    }

    var isOrdering: Bool { self == .less || self == .lessOrEqual || self == .greater || self == .greaterOrEqual }

    /// The filter's own operator, for comparisons of a field with a value.
    var filterOperator: FilterExpression.Operator? { FilterExpression.Operator(rawValue: rawValue) }
}

/// Where an expression was typed: from its first token to its last, each as a word of the
/// command line and characters of that word (quoted words: the whole word).
public struct ExpressionSpan: Sendable, Equatable {
    public var startWord = 0
    public var startCharacter = 0
    public var endWord = 0
    public var endCharacter = 0
    /// Whether the first token was a quoted word (its quotes are not among its characters).
    public var startQuoted = false
    public var endQuoted = false

    public init() {}

    init(_ token: ExpressionToken) {
        startWord = token.word
        startCharacter = token.characters.lowerBound
        endWord = token.word
        endCharacter = token.characters.upperBound
        startQuoted = token.isQuoted
        endQuoted = token.isQuoted
    }

    /// From the start of `self` to the end of `other`.
    func through(_ other: ExpressionSpan) -> ExpressionSpan {
        var span = self
        span.endWord = other.endWord
        span.endCharacter = other.endCharacter
        span.endQuoted = other.endQuoted
        return span
    }
}

/// An expression's canonical text: operators spaced, text quoted, parentheses only where
/// precedence needs them.
enum ExpressionText {
    static func text(of expression: Expression) -> String { text(expression, parent: 0) }

    /// Binding strength: or 1, and 2, not 3, comparisons 4, `||` 5, + - 6, * / % 7, unary 8.
    private static func strength(_ node: Expression.Node) -> Int {
        switch node {
        case .or: 1
        case .and: 2
        case .not: 3
        case .comparison, .isNull: 4
        case let .arithmetic(op, _, _): 4 + op.precedence
        case .negate: 8
        default: 9
        }
    }

    private static func text(_ expression: Expression, parent: Int) -> String {
        let own = strength(expression.node)
        let body: String
        switch expression.node {
        case let .number(_, written): body = written
        case let .text(value, _): body = quoted(value)
        case let .date(_, written): body = written
        case let .boolean(value): body = value ? "true" : "false"
        case .null: body = "null"
        case let .field(name): body = name
        case let .negate(inner): body = "-" + text(inner, parent: own)
        case let .not(inner): body = "not " + text(inner, parent: own)
        case let .isNull(inner, negated): body = text(inner, parent: own + 1) + (negated ? " is not null" : " is null")
        case let .arithmetic(op, left, right): body = text(left, parent: own) + " \(op.rawValue) " + text(right, parent: own + 1)
        case let .comparison(op, left, right): body = text(left, parent: own + 1) + " \(op.rawValue) " + text(right, parent: own + 1)
        case let .and(left, right): body = text(left, parent: own) + " and " + text(right, parent: own + 1)
        case let .or(left, right): body = text(left, parent: own) + " or " + text(right, parent: own + 1)
        case let .call(name, arguments): body = name + "(" + arguments.map { text($0, parent: 0) }.joined(separator: ", ") + ")"
        }
        return own < parent ? "(" + body + ")" : body
    }

    /// `'it''s'`, as SQL quotes text.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
