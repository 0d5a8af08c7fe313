/// Reads tokens into an `Expression`, by precedence: `or`, `and`, `not`, comparisons and
/// `is [not] null`, `||`, `+ -`, `* / %`, unary `-`, then values, fields, calls and parentheses.
struct ExpressionParser {
    let tokens: [ExpressionToken]
    var position = 0
    var depth = 0
    var nodes = 0

    /// Parentheses, `not`s and unary minus nest at most this deep; the parser recurses once per level.
    static let maximumNesting = 64
    /// At most this many operators and calls in one expression (256 conditions joined by
    /// and/or fit): binding and evaluation recurse through them.
    static let maximumNodes = 600

    init(_ tokens: [ExpressionToken]) { self.tokens = tokens }

    var peek: ExpressionToken? { position < tokens.count ? tokens[position] : nil }
    var atEnd: Bool { position >= tokens.count }

    func span(_ index: Int) -> ExpressionSpan { ExpressionSpan(tokens[index]) }

    /// The span from token `start` to the last token read.
    func span(from start: Int) -> ExpressionSpan {
        span(start).through(span(max(start, position - 1)))
    }

    mutating func nest() throws(ExpressionSyntaxError) {
        depth += 1
        if depth > Self.maximumNesting {
            throw ExpressionError.syntax("parentheses, 'not' and '-' nest deeper than \(Self.maximumNesting) levels (the limit)",
                                        at: span(position - 1))
        }
    }

    mutating func count() throws(ExpressionSyntaxError) {
        nodes += 1
        if nodes > Self.maximumNodes {
            throw ExpressionError.syntax("more than \(Self.maximumNodes) operators in one expression (the limit)",
                                        at: span(max(0, position - 1)))
        }
    }

    func isSymbol(_ text: String) -> Bool { peek.map { $0.isSymbol && $0.text == text } ?? false }
    func isKeyword(_ keyword: String) -> Bool { peek?.isKeyword(keyword) ?? false }

    mutating func parseOr() throws(ExpressionSyntaxError) -> Expression {
        let start = position
        var left = try parseAnd()
        while isKeyword("or") {
            position += 1
            let right = try parseAnd()
            try count()
            left = Expression(.or(left, right), span: span(from: start))
        }
        return left
    }

    mutating func parseAnd() throws(ExpressionSyntaxError) -> Expression {
        let start = position
        var left = try parseNot()
        while isKeyword("and") {
            position += 1
            let right = try parseNot()
            try count()
            left = Expression(.and(left, right), span: span(from: start))
        }
        return left
    }

    mutating func parseNot() throws(ExpressionSyntaxError) -> Expression {
        let start = position
        if isKeyword("not") {
            position += 1
            try nest()
            defer { depth -= 1 }
            let inner = try parseNot()
            try count()
            return Expression(.not(inner), span: span(from: start))
        }
        return try parsePredicate()
    }

    mutating func parsePredicate() throws(ExpressionSyntaxError) -> Expression {
        let start = position
        var left = try parseConcatenation()
        // A quoted word alone before a comparison is a field's name, as filters have always
        // read it (`"first name" = Ann`).
        if case let .text(name, false) = left.node, position == start + 1, let next = peek, next.isSymbol,
           ExpressionTokens.comparisonSymbols.contains(next.text) {
            left.node = .field(name)
        }
        if let token = peek, token.isSymbol, ExpressionTokens.comparisonSymbols.contains(token.text),
           let op = ComparisonOperator(rawValue: token.text) {
            position += 1
            let right = try parseComparedValue(after: token)
            try count()
            return Expression(.comparison(op, left, right), span: span(from: start))
        }
        if isKeyword("is") {
            position += 1
            let negated = isKeyword("not")
            if negated { position += 1 }
            guard isKeyword("null") else {
                throw ExpressionError.syntax("expected null after 'is\(negated ? " not" : "")'", at: atEnd ? nil : span(position))
            }
            position += 1
            try count()
            return Expression(.isNull(left, negated: negated), span: span(from: start))
        }
        return left
    }

    /// The right of a comparison: a bare name alone is text (`region = Europe`), as filters
    /// have always read it; a name in arithmetic or a call is a field or function
    /// (`population > area * 2`); `(name)` is the field.
    mutating func parseComparedValue(after op: ExpressionToken) throws(ExpressionSyntaxError) -> Expression {
        guard let token = peek else {
            throw ExpressionError.syntax("expected a value after '\(op.text)'")
        }
        if token.kind == .word, !["null", "true", "false", "not"].contains(token.text.lowercased()) {
            let next = position + 1 < tokens.count ? tokens[position + 1] : nil
            let continues = next.map { $0.kind == .open || ($0.isSymbol && ArithmeticOperator(rawValue: $0.text) != nil) } ?? false
            if !continues {
                position += 1
                return Expression(.text(token.text, bare: true), span: span(position - 1))
            }
        }
        if token.isSymbol, ExpressionTokens.comparisonSymbols.contains(token.text) {
            throw ExpressionError.syntax("expected a value after '\(op.text)', found '\(token.text)'", at: span(position))
        }
        return try parseConcatenation()
    }

    mutating func parseConcatenation() throws(ExpressionSyntaxError) -> Expression {
        try parseBinary(level: 1)
    }

    /// Left-associative arithmetic at precedence `level` (1 `||`, 2 `+ -`, 3 `* / %`).
    mutating func parseBinary(level: Int) throws(ExpressionSyntaxError) -> Expression {
        let start = position
        var left = level == 3 ? try parseUnary() : try parseBinary(level: level + 1)
        while let token = peek, token.isSymbol, let op = ArithmeticOperator(rawValue: token.text), op.precedence == level {
            position += 1
            guard !atEnd else { throw ExpressionError.syntax("expected a value after '\(op.rawValue)'") }
            let right = level == 3 ? try parseUnary() : try parseBinary(level: level + 1)
            try count()
            left = Expression(.arithmetic(op, left, right), span: span(from: start))
        }
        return left
    }

    mutating func parseUnary() throws(ExpressionSyntaxError) -> Expression {
        let start = position
        if isSymbol("-") || isSymbol("+") {
            let minus = isSymbol("-")
            position += 1
            try nest()
            defer { depth -= 1 }
            let inner = try parseUnary()
            try count()
            if !minus { return inner }
            if case let .number(value, text) = inner.node { return Expression(.number(-value, text: "-" + text), span: span(from: start)) }
            return Expression(.negate(inner), span: span(from: start))
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws(ExpressionSyntaxError) -> Expression {
        guard let token = peek else { throw ExpressionError.syntax("the expression ends early: expected a value or a field") }
        let start = position
        switch token.kind {
        case let .number(value):
            position += 1
            return Expression(.number(value, text: token.text), span: span(start))
        case let .date(seconds):
            position += 1
            return Expression(.date(seconds, text: token.text), span: span(start))
        case .text:
            position += 1
            return Expression(.text(token.text, bare: !token.isQuoted), span: span(start))
        case .open:
            position += 1
            try nest()
            defer { depth -= 1 }
            let inner = try parseOr()
            guard let close = peek, close.kind == .close else {
                throw ExpressionError.syntax("missing ')'", at: atEnd ? nil : span(position))
            }
            position += 1
            var grouped = inner
            grouped.span = span(from: start)
            return grouped
        case .close:
            throw ExpressionError.syntax("unexpected ')'", at: span(position))
        case .comma:
            throw ExpressionError.syntax("unexpected ','", at: span(position))
        case .symbol:
            throw ExpressionError.syntax("expected a value or a field before '\(token.text)'", at: span(position))
        case .word:
            position += 1
            switch token.text.lowercased() {
            case "null": return Expression(.null, span: span(start))
            case "true": return Expression(.boolean(true), span: span(start))
            case "false": return Expression(.boolean(false), span: span(start))
            default: break
            }
            guard let open = peek, open.kind == .open else { return Expression(.field(token.text), span: span(start)) }
            position += 1
            try count()
            try nest()
            defer { depth -= 1 }
            var arguments: [Expression] = []
            if let close = peek, close.kind == .close {
                position += 1
            } else {
                while true {
                    arguments.append(try parseOr())
                    guard let next = peek else { throw ExpressionError.syntax("missing ')' after the arguments of \(token.text)") }
                    position += 1
                    if next.kind == .close { break }
                    guard next.kind == .comma else {
                        throw ExpressionError.syntax("expected ',' or ')' in \(token.text)(…), found '\(next.text)'", at: span(position - 1))
                    }
                }
            }
            return Expression(.call(token.text.lowercased(), arguments), span: span(from: start))
        }
    }
}

extension Expression {
    /// Parses a whole expression from the command line's words.
    public static func parse(_ words: [(text: String, isQuoted: Bool)]) throws(ExpressionSyntaxError) -> Expression {
        try parse(tokens: ExpressionTokens.tokens(words))
    }

    /// Parses canonical text (`population / area`), as `description` writes it.
    public static func parse(_ text: String) throws(ExpressionSyntaxError) -> Expression {
        try parse(ExpressionTokens.words(of: text))
    }

    public static func parse(tokens: [ExpressionToken]) throws(ExpressionSyntaxError) -> Expression {
        guard !tokens.isEmpty else { throw ExpressionError.syntax("expected an expression, e.g. population / area") }
        var parser = ExpressionParser(tokens)
        let expression = try parser.parseOr()
        if let extra = parser.peek {
            throw ExpressionError.syntax("unexpected '\(extra.text)' — join conditions with and, or", at: parser.span(parser.position))
        }
        return expression
    }
}
