/// A parsed `filter` condition: comparisons of a field with a value joined by `and`, `or`,
/// `not` and parentheses — compared as filters always have (lists match when any element
/// does, SWAPI's links by the linked record's name, numbers written as text as numbers) —
/// and any other condition of the expression language (`population / area > 1000`,
/// `name =~ '^Un'`, `count(borders) = 0`), which the evaluator computes over columns.
/// One grammar: `Expression`'s parser reads both.
public indirect enum FilterExpression: Sendable, Equatable {
    case comparison(field: String, op: Operator, value: String)
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    case not(FilterExpression)
    /// A condition that is more than `FIELD OP VALUE`.
    case computed(Expression)

    public enum Operator: String, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", contains = "~", notContains = "!~"
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

        var isOrdering: Bool { self == .less || self == .lessOrEqual || self == .greater || self == .greaterOrEqual }
    }

    /// Every field the expression names, for checking them before running it.
    public var fields: [String] {
        switch self {
        case let .comparison(field, _, _): [field]
        case let .and(left, right), let .or(left, right): left.fields + right.fields
        case let .not(inner): inner.fields
        case let .computed(expression): expression.fields
        }
    }

    /// The condition as one expression.
    public var expression: Expression {
        switch self {
        case let .comparison(field, op, value):
            let right: Expression.Node = Double(value) != nil ? .number(Double(value)!, text: value) : .text(value, bare: false)
            return Expression(.comparison(ComparisonOperator(rawValue: op.rawValue)!, Expression(.field(field)), Expression(right)))
        case let .and(left, right): return Expression(.and(left.expression, right.expression))
        case let .or(left, right): return Expression(.or(left.expression, right.expression))
        case let .not(inner): return Expression(.not(inner.expression))
        case let .computed(expression): return expression
        }
    }

    /// The filter's form of an expression: `FIELD OP VALUE` joined by and, or, not where it
    /// is only that, else the expression as a whole.
    public init(_ expression: Expression) {
        switch expression.node {
        case let .and(left, right):
            let (first, second) = (FilterExpression(left), FilterExpression(right))
            if case .computed = first { self = .computed(expression); return }
            if case .computed = second { self = .computed(expression); return }
            self = .and(first, second)
        case let .or(left, right):
            let (first, second) = (FilterExpression(left), FilterExpression(right))
            if case .computed = first { self = .computed(expression); return }
            if case .computed = second { self = .computed(expression); return }
            self = .or(first, second)
        case let .not(inner):
            let first = FilterExpression(inner)
            if case .computed = first { self = .computed(expression); return }
            self = .not(first)
        case let .comparison(op, left, right):
            if let field = left.fieldName, let filterOp = op.filterOperator, let value = ExpressionBinder.literalText(right) {
                self = .comparison(field: field, op: filterOp, value: value)
            } else {
                self = .computed(expression)
            }
        default:
            self = .computed(expression)
        }
    }
}

/// One token of a filter: a word of the command line, or a piece of an unquoted word split at
/// operators and parentheses (`population>100` is three tokens). Quoted text is always a value.
public struct FilterToken: Sendable, Equatable {
    public var text: String
    public var isQuoted: Bool
    /// Which word the token came from and which characters of it (for colouring the line);
    /// not part of its identity.
    public var word = 0
    public var characters = 0..<0
    /// The expression language's token it is.
    public var token: ExpressionToken?

    public init(_ text: String, isQuoted: Bool = false) {
        self.text = text
        self.isQuoted = isQuoted
    }

    init(_ token: ExpressionToken) {
        self.init(token.text, isQuoted: token.isQuoted)
        word = token.word
        characters = token.characters
        self.token = token
    }

    public static func == (lhs: FilterToken, rhs: FilterToken) -> Bool {
        lhs.text == rhs.text && lhs.isQuoted == rhs.isQuoted
    }
}

public struct FilterSyntaxError: Error, Equatable, CustomStringConvertible {
    public var message: String
    /// The token it is about, by its place among the tokens; nil when something is missing at the end.
    public var token: Int?
    public var description: String { message }

    public init(message: String, token: Int? = nil) {
        self.message = message
        self.token = token
    }
}

extension FilterExpression {
    /// The words as the expression language's tokens; a condition has no list of items, so
    /// `population > 1,000,000` compares with one number.
    public static func tokens(_ words: [(text: String, isQuoted: Bool)]) -> [FilterToken] {
        ExpressionTokens.tokens(words, groupedNumbers: true).map(FilterToken.init)
    }

    /// Parses `region = Europe and population > 10000000`, `population / area > 1000`.
    public static func parse(_ tokens: [FilterToken]) throws(FilterSyntaxError) -> FilterExpression {
        guard !tokens.isEmpty else { throw FilterSyntaxError(message: "expected FIELD OP VALUE, e.g. region = Europe") }
        let expressionTokens = tokens.map { $0.token ?? ExpressionToken(kind: $0.isQuoted ? .text : .word, text: $0.text, isQuoted: $0.isQuoted,
                                                                          word: $0.word, characters: $0.characters) }
        do {
            return FilterExpression(try Expression.parse(tokens: expressionTokens))
        } catch {
            throw FilterSyntaxError(error, tokens: expressionTokens)
        }
    }

    /// Parentheses and `not`s nest at most this deep; the parser recurses once per level.
    public static let maximumNesting = ExpressionParser.maximumNesting
}

extension FilterSyntaxError {
    /// The expression's error, pointed at the token it starts at; a field followed by a word
    /// is a missing operator, as filters have always said.
    init(_ error: ExpressionSyntaxError, tokens: [ExpressionToken]) {
        let index = error.span.flatMap { span in
            tokens.firstIndex { $0.word == span.startWord && ($0.isQuoted || $0.characters.lowerBound == span.startCharacter) }
        }
        if let index, index > 0, error.message.hasPrefix("unexpected"), tokens[index - 1].kind == .word,
           index == 1 || tokens[index - 2].isKeyword("and") || tokens[index - 2].isKeyword("or") || tokens[index - 2].isKeyword("not")
            || tokens[index - 2].kind == .open {
            self.init(message: "expected an operator (= != ~ !~ < <= > >=) after '\(tokens[index - 1].text)', found '\(tokens[index].text)'",
                      token: index)
            return
        }
        self.init(message: error.message, token: index)
    }
}
