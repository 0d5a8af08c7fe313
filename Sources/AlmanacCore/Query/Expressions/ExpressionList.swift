/// `EXPR [as NAME] [asc|desc], …`: the items of sort, columns, group, histogram and describe.
public struct ExpressionItem: Sendable, Equatable {
    public var expression: Expression
    /// The name given with `as`.
    public var name: String?
    /// `asc`/`desc` (lower-cased), where the command takes one.
    public var suffix: String?
    /// Whether a comma came before it (else a space, or it is the first).
    public var afterComma: Bool
    public var span: ExpressionSpan

    /// The spec as the query values keep it: a field's name, or the canonical text with the
    /// name given (`population / area as density`).
    public var spec: String {
        if let field = expression.fieldName, name == nil { return field }
        return ComputedField.spec(expression, name: name)
    }
}

public enum ExpressionList {
    /// Items separated by commas — or spaces, where `spaces` allows it (`group region subregion`).
    /// `suffixes`: words an item may end in (`desc`); `names`: whether `as NAME` is allowed.
    public static func parse(_ tokens: [ExpressionToken], suffixes: [String] = [], names: Bool = true,
                             spaces: Bool = false) throws(ExpressionSyntaxError) -> [ExpressionItem] {
        var parser = ExpressionParser(tokens)
        var items: [ExpressionItem] = []
        var afterComma = false
        while !parser.atEnd {
            let start = parser.position
            if let token = parser.peek, token.kind == .comma {
                throw ExpressionError.syntax(items.isEmpty ? "expected an expression before ','" : "two commas in a row", at: parser.span(start))
            }
            let expression = try parser.parseOr()
            var item = ExpressionItem(expression: expression, afterComma: afterComma, span: parser.span(from: start))
            if parser.isKeyword("as") {
                let keyword = parser.position
                guard names else { throw ExpressionError.syntax("'as NAME' does not belong here", at: parser.span(keyword)) }
                parser.position += 1
                guard let name = parser.peek, name.kind == .word || name.kind == .text else {
                    throw ExpressionError.syntax("expected a name after 'as'", at: parser.atEnd ? nil : parser.span(parser.position))
                }
                parser.position += 1
                item.name = name.text
            }
            if let word = parser.peek, word.kind == .word, suffixes.contains(word.text.lowercased()) {
                item.suffix = word.text.lowercased()
                parser.position += 1
            }
            item.span = parser.span(from: start)
            items.append(item)
            guard let next = parser.peek else { break }
            if next.kind == .comma {
                parser.position += 1
                guard !parser.atEnd else { throw ExpressionError.syntax("an expression is missing after the comma", at: parser.span(parser.position - 1)) }
                afterComma = true
                continue
            }
            guard spaces, next.kind != .close, !next.isSymbol else {
                let hint = suffixes.isEmpty ? "" : " — after an expression comes \(suffixes.joined(separator: " or ")) or a comma"
                throw ExpressionError.syntax("unexpected '\(next.text)'\(hint)", at: parser.span(parser.position))
            }
            afterComma = false
        }
        guard !items.isEmpty else { throw ExpressionError.syntax("expected an expression, e.g. population / area") }
        return items
    }
}

/// A computed field as the query values keep it (`SortKey.field`, `GroupSpec.fields`, a chosen
/// column): a field's name stays a name; anything else is the expression's canonical text,
/// with ` as NAME` when it was given one. Read back by `parse`.
public enum ComputedField {
    public static func spec(_ expression: Expression, name: String?) -> String {
        let text = expression.description
        guard let name else { return text }
        return text + " as " + (isPlainName(name) ? name : ExpressionText.quoted(name))
    }

    /// The expression and the name of a spec: the name given, else the text itself. A
    /// spec that is a field's name is that field (a key with spaces or symbols included), so
    /// `isField` is asked first.
    public static func parse(_ spec: String, isField: (String) -> Bool = { _ in false }) throws(ExpressionSyntaxError) -> (expression: Expression, name: String) {
        if isField(spec) { return (Expression(.field(spec)), spec) }
        let tokens = ExpressionTokens.tokens(ExpressionTokens.words(of: spec))
        var items = try ExpressionList.parse(tokens)
        guard items.count == 1 else { throw ExpressionError.syntax("expected one expression in '\(spec)'") }
        let item = items.removeFirst()
        return (item.expression, item.name ?? item.expression.description)
    }

    /// The column's title: the name after `as`, else the text.
    public static func title(of spec: String) -> String {
        guard spec.contains(" as ") || spec.contains(" AS "), let parsed = try? parse(spec) else { return spec }
        return parsed.name
    }

    /// Whether people read the column's numbers grouped in thousands: not when its title says
    /// it holds years or identifiers (`ValueText`), nor when it is a calendar part
    /// (`year(closed) as y` reads `2024`).
    public static func groupsThousands(_ spec: String) -> Bool {
        guard ValueText.groupsThousands(title(of: spec)) else { return false }
        guard spec.contains("("), case let .call(name, _)? = try? parse(spec).expression.node else { return true }
        return !(ExpressionFunction.named(name)?.isCalendarPart ?? false)
    }

    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !(name.first?.isNumber ?? true)
    }
}

extension ComputedField {
    /// Whether `spec` is among `specs`, as the same field or the same expression under any name
    /// (a sort by `population / area` is the column `population / area as density`).
    public static func isAmong(_ specs: [String], _ spec: String) -> Bool {
        if specs.contains(spec) { return true }
        guard spec.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-") }),
              let expression = try? parse(spec).expression else { return false }
        return specs.contains { other in
            other.contains(where: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-") }) && (try? parse(other).expression) == expression
        }
    }
}
