/// A parsed `filter` expression: comparisons joined by `and`, `or`, `not` and parentheses.
public indirect enum FilterExpression: Sendable, Equatable {
    case comparison(field: String, op: Operator, value: String)
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    case not(FilterExpression)

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

    public init(_ text: String, isQuoted: Bool = false) {
        self.text = text
        self.isQuoted = isQuoted
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
    /// Splits unquoted words at operators and parentheses.
    public static func tokens(_ words: [(text: String, isQuoted: Bool)]) -> [FilterToken] {
        var tokens: [FilterToken] = []
        for (index, word) in words.enumerated() {
            func add(_ text: String, from start: Int, isQuoted: Bool = false) {
                var token = FilterToken(text, isQuoted: isQuoted)
                token.word = index
                token.characters = start..<(start + text.count)
                tokens.append(token)
            }
            if word.isQuoted { add(word.text, from: 0, isQuoted: true); continue }
            var current = ""
            let characters = Array(word.text)
            var position = 0
            func flush() {
                if !current.isEmpty { add(current, from: position - current.count); current = "" }
            }
            while position < characters.count {
                let character = characters[position]
                if character == "(" || character == ")" {
                    flush()
                    add(String(character), from: position)
                    position += 1
                } else if "=!~<>".contains(character) {
                    flush()
                    let two = String(characters[position..<min(characters.count, position + 2)])
                    // `==` is `=`, as programmers type it.
                    let length = ["!=", "!~", "<=", ">=", "=="].contains(two) ? 2 : 1
                    add(two == "==" ? "=" : String(characters[position..<(position + length)]), from: position)
                    position += length
                } else {
                    current.append(character)
                    position += 1
                }
            }
            flush()
        }
        return tokens
    }

    /// Parses `region = Europe and population > 10000000`.
    public static func parse(_ tokens: [FilterToken]) throws(FilterSyntaxError) -> FilterExpression {
        var parser = Parser(tokens: tokens)
        guard !tokens.isEmpty else { throw FilterSyntaxError(message: "expected FIELD OP VALUE, e.g. region = Europe") }
        let expression = try parser.parseOr()
        if let extra = parser.peek {
            throw FilterSyntaxError(message: "unexpected '\(extra.text)' — join conditions with and, or", token: parser.position)
        }
        return expression
    }

    /// Parentheses and `not`s nest at most this deep; the parser recurses once per level.
    public static let maximumNesting = 64
    /// At most this many conditions in one filter: evaluation recurses along and/or chains.
    public static let maximumConditions = 256

    private struct Parser {
        let tokens: [FilterToken]
        var position = 0
        var depth = 0
        var conditions = 0

        mutating func nest() throws(FilterSyntaxError) {
            depth += 1
            if depth > FilterExpression.maximumNesting {
                throw FilterSyntaxError(message: "parentheses and 'not' nest deeper than \(FilterExpression.maximumNesting) levels (the limit)",
                                        token: position - 1)
            }
        }

        var peek: FilterToken? { position < tokens.count ? tokens[position] : nil }

        func isKeyword(_ token: FilterToken?, _ word: String) -> Bool {
            guard let token, !token.isQuoted else { return false }
            return token.text.lowercased() == word
        }

        mutating func parseOr() throws(FilterSyntaxError) -> FilterExpression {
            var left = try parseAnd()
            while isKeyword(peek, "or") {
                position += 1
                left = .or(left, try parseAnd())
            }
            return left
        }

        mutating func parseAnd() throws(FilterSyntaxError) -> FilterExpression {
            var left = try parseNot()
            while isKeyword(peek, "and") {
                position += 1
                left = .and(left, try parseNot())
            }
            return left
        }

        mutating func parseNot() throws(FilterSyntaxError) -> FilterExpression {
            if isKeyword(peek, "not") {
                position += 1
                try nest()
                defer { depth -= 1 }
                return .not(try parseNot())
            }
            return try parsePrimary()
        }

        mutating func parsePrimary() throws(FilterSyntaxError) -> FilterExpression {
            guard let token = peek else { throw FilterSyntaxError(message: "the expression ends early: expected FIELD OP VALUE") }
            if !token.isQuoted, token.text == "(" {
                position += 1
                try nest()
                defer { depth -= 1 }
                let inner = try parseOr()
                guard let close = peek, !close.isQuoted, close.text == ")" else {
                    throw FilterSyntaxError(message: "missing ')'", token: peek == nil ? nil : position)
                }
                position += 1
                return inner
            }
            if !token.isQuoted, token.text == ")" { throw FilterSyntaxError(message: "unexpected ')'", token: position) }
            if !token.isQuoted, FilterExpression.Operator(rawValue: token.text) != nil {
                throw FilterSyntaxError(message: "expected a field name before '\(token.text)'", token: position)
            }
            let field = token.text
            position += 1
            guard let opToken = peek, !opToken.isQuoted, let op = FilterExpression.Operator(rawValue: opToken.text) else {
                let found = peek.map { "'\($0.text)'" } ?? "the end"
                throw FilterSyntaxError(message: "expected an operator (= != ~ !~ < <= > >=) after '\(field)', found \(found)",
                                        token: peek == nil ? nil : position)
            }
            position += 1
            guard let value = peek, value.isQuoted || (value.text != "(" && value.text != ")"
                && FilterExpression.Operator(rawValue: value.text) == nil) else {
                throw FilterSyntaxError(message: "expected a value after '\(field) \(op.rawValue)'", token: peek == nil ? nil : position)
            }
            position += 1
            conditions += 1
            if conditions > FilterExpression.maximumConditions {
                throw FilterSyntaxError(message: "more than \(FilterExpression.maximumConditions) conditions in one filter (the limit)",
                                        token: position - 1)
            }
            return .comparison(field: field, op: op, value: value.text)
        }
    }
}
