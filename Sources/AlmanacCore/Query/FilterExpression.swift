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

    public init(_ text: String, isQuoted: Bool = false) {
        self.text = text
        self.isQuoted = isQuoted
    }
}

public struct FilterSyntaxError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

extension FilterExpression {
    /// Splits unquoted words at operators and parentheses.
    public static func tokens(_ words: [(text: String, isQuoted: Bool)]) -> [FilterToken] {
        var tokens: [FilterToken] = []
        for word in words {
            if word.isQuoted { tokens.append(FilterToken(word.text, isQuoted: true)); continue }
            var current = ""
            var characters = Array(word.text)[...]
            while let character = characters.first {
                if character == "(" || character == ")" {
                    if !current.isEmpty { tokens.append(FilterToken(current)); current = "" }
                    tokens.append(FilterToken(String(character)))
                    characters = characters.dropFirst()
                } else if "=!~<>".contains(character) {
                    if !current.isEmpty { tokens.append(FilterToken(current)); current = "" }
                    let two = String(characters.prefix(2))
                    if ["!=", "!~", "<=", ">="].contains(two) {
                        tokens.append(FilterToken(two))
                        characters = characters.dropFirst(2)
                    } else {
                        tokens.append(FilterToken(String(character)))
                        characters = characters.dropFirst()
                    }
                } else {
                    current.append(character)
                    characters = characters.dropFirst()
                }
            }
            if !current.isEmpty { tokens.append(FilterToken(current)) }
        }
        return tokens
    }

    /// Parses `region = Europe and population > 10000000`.
    public static func parse(_ tokens: [FilterToken]) throws(FilterSyntaxError) -> FilterExpression {
        var parser = Parser(tokens: tokens)
        guard !tokens.isEmpty else { throw FilterSyntaxError(message: "expected FIELD OP VALUE, e.g. region = Europe") }
        let expression = try parser.parseOr()
        if let extra = parser.peek {
            throw FilterSyntaxError(message: "unexpected '\(extra.text)' — join conditions with and, or")
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
                throw FilterSyntaxError(message: "parentheses and 'not' nest deeper than \(FilterExpression.maximumNesting) levels (the limit)")
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
                    throw FilterSyntaxError(message: "missing ')'")
                }
                position += 1
                return inner
            }
            if !token.isQuoted, token.text == ")" { throw FilterSyntaxError(message: "unexpected ')'") }
            if !token.isQuoted, FilterExpression.Operator(rawValue: token.text) != nil {
                throw FilterSyntaxError(message: "expected a field name before '\(token.text)'")
            }
            let field = token.text
            position += 1
            guard let opToken = peek, !opToken.isQuoted, let op = FilterExpression.Operator(rawValue: opToken.text) else {
                let found = peek.map { "'\($0.text)'" } ?? "the end"
                throw FilterSyntaxError(message: "expected an operator (= != ~ !~ < <= > >=) after '\(field)', found \(found)")
            }
            position += 1
            guard let value = peek, value.isQuoted || (value.text != "(" && value.text != ")"
                && FilterExpression.Operator(rawValue: value.text) == nil) else {
                throw FilterSyntaxError(message: "expected a value after '\(field) \(op.rawValue)'")
            }
            position += 1
            conditions += 1
            if conditions > FilterExpression.maximumConditions {
                throw FilterSyntaxError(message: "more than \(FilterExpression.maximumConditions) conditions in one filter (the limit)")
            }
            return .comparison(field: field, op: op, value: value.text)
        }
    }
}
