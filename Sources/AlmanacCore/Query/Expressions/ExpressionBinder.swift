import Foundation

/// Checks an expression against a catalog of fields and types it, once, before anything runs
/// (DuckDB's binder): unknown fields and functions, and operands of the wrong type, are
/// errors pointing at the operand.
public struct ExpressionBinder {
    let catalog: any ExpressionCatalog

    public init(_ catalog: any ExpressionCatalog) { self.catalog = catalog }

    /// A condition for `filter`: it must be true or false.
    public func bindCondition(_ expression: Expression) throws -> BoundExpression {
        let bound = try bind(expression)
        guard bound.type == .boolean || bound.type == .null else {
            throw ExpressionError("a filter needs a condition, and \(Self.shown(expression)) is \(bound.type.withArticle) — "
                + "compare it: \(expression) > 0", at: expression.span)
        }
        return bound
    }

    public func bind(_ expression: Expression) throws -> BoundExpression {
        let span = expression.span
        switch expression.node {
        case let .number(value, _): return BoundExpression(.number(value), .number, span)
        case let .date(seconds, _): return BoundExpression(.number(seconds), .date, span)
        case let .text(text, _): return BoundExpression(.text(text), .text, span)
        case let .boolean(value): return BoundExpression(.boolean(value), .boolean, span)
        case .null: return BoundExpression(.null, .null, span)
        case let .field(name):
            if let dataset = catalog.datasetName(ifNamed: name) { return BoundExpression(.text(dataset), .text, span) }
            guard let field = catalog.field(name) else {
                let path: LinkPath?
                do { path = try catalog.linkPath(name) } catch { throw Self.located(error, at: span) }
                if let path { return BoundExpression(.linked(path), path.type, span) }
                throw Self.located(catalog.unknownField(name), at: span)
            }
            return BoundExpression(.field(field.name, container: field.container), field.type, span)
        case let .negate(inner):
            let bound = try bind(inner)
            try require(bound, .number, inner, for: "-")
            return BoundExpression(.negate(bound), bound.type, span)
        case let .arithmetic(op, left, right):
            return try arithmetic(op, left, right, span)
        case let .comparison(op, left, right):
            return try comparison(op, left, right, span)
        case let .isNull(inner, negated):
            return BoundExpression(.isNull(try bind(inner), negated: negated), .boolean, span)
        case let .and(left, right), let .or(left, right):
            let word = if case .and = expression.node { "and" } else { "or" }
            let (first, second) = (try condition(left, for: word), try condition(right, for: word))
            return BoundExpression(word == "and" ? .and(first, second) : .or(first, second), .boolean, span)
        case let .not(inner):
            return BoundExpression(.not(try condition(inner, for: "not")), .boolean, span)
        case let .call(name, arguments):
            return try call(name, arguments, span)
        }
    }

    // MARK: - operators

    private func arithmetic(_ op: ArithmeticOperator, _ left: Expression, _ right: Expression, _ span: ExpressionSpan) throws -> BoundExpression {
        var first = try bind(left)
        var second = try bind(right)
        if first.type.isList, second.type.isList {
            throw ExpressionError("\(Self.shown(left)) and \(Self.shown(right)) are both lists; '\(op.rawValue)' takes at most one",
                                  at: right.span)
        }
        let shape = { (element: ValueType) in (first.type.isList || second.type.isList) ? ValueType.list(element) : element }
        if op == .concatenate {
            first = try coerce(first, to: .text, left, for: op.rawValue)
            second = try coerce(second, to: .text, right, for: op.rawValue)
            return BoundExpression(.arithmetic(op, first, second), shape(.text), span)
        }
        // Dates: date - date is days; date ± n is a date n days away.
        let (a, b) = (first.type.element, second.type.element)
        if a == .date || b == .date {
            if op == .subtract, a == .date, b == .date || b == .text {
                second = try coerce(second, to: .date, right, for: op.rawValue)
                return BoundExpression(.arithmetic(op, first, second), shape(.number), span)
            }
            if op == .add || op == .subtract, a == .date {
                second = try coerce(second, to: .number, right, for: op.rawValue)
                return BoundExpression(.arithmetic(op, first, second), shape(.date), span)
            }
            if op == .add, b == .date {
                first = try coerce(first, to: .number, left, for: op.rawValue)
                return BoundExpression(.arithmetic(op, first, second), shape(.date), span)
            }
            let culprit = a == .date ? left : right
            throw ExpressionError("\(Self.shown(culprit)) is a date; '\(op.rawValue)' needs numbers (a date takes + or - a number of days, "
                + "and a date minus a date is days)", at: culprit.span)
        }
        first = try coerce(first, to: .number, left, for: op.rawValue)
        second = try coerce(second, to: .number, right, for: op.rawValue)
        return BoundExpression(.arithmetic(op, first, second), shape(.number), span)
    }

    private func comparison(_ op: ComparisonOperator, _ left: Expression, _ right: Expression, _ span: ExpressionSpan) throws -> BoundExpression {
        // `x = null` and `x != null` ask whether x is there.
        if case .null = right.node, op == .equal || op == .notEqual {
            return BoundExpression(.isNull(try bind(left), negated: op == .notEqual), .boolean, span)
        }
        if case .null = right.node {
            throw ExpressionError("nothing is more or less than null — ask 'is null' or 'is not null'", at: right.span)
        }
        // A field and a value: compared as filters always have.
        if let field = left.fieldName, let value = Self.literalText(right), let filterOp = op.filterOperator {
            if let dataset = catalog.datasetName(ifNamed: field) {
                return BoundExpression(.boolean(DatasetField.meets(dataset, filterOp, value)), .boolean, span)
            }
            if catalog.field(field) == nil {
                let path: LinkPath?
                do { path = try catalog.linkPath(field) } catch { throw Self.located(error, at: left.span) }
                guard path != nil else { throw Self.located(catalog.unknownField(field), at: left.span) }
            }
            do {
                try catalog.checkComparison(field: field, op: filterOp, value: value)
            } catch {
                throw Self.located(error, at: right.span)
            }
            return BoundExpression(.legacy(field: field, op: filterOp, value: value), .boolean, span)
        }
        var first = try bind(left)
        var second = try bind(right)
        var (leftExpression, rightExpression) = (left, right)
        if second.type.isList, !first.type.isList {
            // `5 = latlng`: the list on the left, where comparisons look for any element.
            if op.isOrdering || op == .contains || op == .notContains || op == .matches {
                throw ExpressionError("\(Self.shown(right)) is a list: put it on the left of '\(op.rawValue)'", at: right.span)
            }
            swap(&first, &second)
            swap(&leftExpression, &rightExpression)
        } else if first.type.isList, second.type.isList {
            throw ExpressionError("\(Self.shown(left)) and \(Self.shown(right)) are both lists; '\(op.rawValue)' compares a list with one value",
                                  at: right.span)
        }
        if let negation = op.negation {
            let positive = try comparison(negation, first, second, leftExpression, rightExpression, span)
            return BoundExpression(.not(positive), .boolean, span)
        }
        return try comparison(op, first, second, leftExpression, rightExpression, span)
    }

    private func comparison(_ op: ComparisonOperator, _ left: BoundExpression, _ right: BoundExpression,
                            _ leftExpression: Expression, _ rightExpression: Expression, _ span: ExpressionSpan) throws -> BoundExpression {
        var first = left
        var second = right
        switch op {
        case .matches:
            guard case let .text(pattern) = right.kind else {
                throw ExpressionError("'=~' takes a pattern in quotes: name =~ '^Un'", at: rightExpression.span)
            }
            let regex: NSRegularExpression
            do {
                regex = try NSRegularExpression(pattern: pattern)
            } catch {
                throw ExpressionError("'\(pattern)' is no regular expression (ICU syntax, as NSRegularExpression reads it)",
                                      at: rightExpression.span)
            }
            first = try coerce(first, to: .text, leftExpression, for: op.rawValue)
            return BoundExpression(.match(first, regex, pattern: pattern), .boolean, span)
        case .contains:
            first = try coerce(first, to: .text, leftExpression, for: op.rawValue)
            second = try coerce(second, to: .text, rightExpression, for: op.rawValue)
        default:
            let (a, b) = (first.type.element, second.type.element)
            let common: ValueType
            if a == b || b == .null {
                common = a
            } else if a == .null {
                common = b
            } else if second.isLiteral, a != .text {
                common = a
            } else if first.isLiteral, b != .text {
                common = b
            } else if a == .text || b == .text, first.isLiteral || second.isLiteral {
                common = .text
            } else {
                throw ExpressionError("\(Self.shown(leftExpression)) is \(first.type.withArticle) and \(Self.shown(rightExpression)) is "
                    + "\(second.type.withArticle): '\(op.rawValue)' compares like with like", at: rightExpression.span)
            }
            first = try coerce(first, to: common, leftExpression, for: op.rawValue)
            second = try coerce(second, to: common, rightExpression, for: op.rawValue)
        }
        return BoundExpression(.comparison(op, first, second), .boolean, span)
    }

    private func condition(_ expression: Expression, for word: String) throws -> BoundExpression {
        let bound = try bind(expression)
        guard bound.type == .boolean || bound.type == .null else {
            throw ExpressionError("\(Self.shown(expression)) is \(bound.type.withArticle); '\(word)' needs a condition (true or false)",
                                  at: expression.span)
        }
        return bound
    }

    // MARK: - functions

    private func call(_ name: String, _ arguments: [Expression], _ span: ExpressionSpan) throws -> BoundExpression {
        guard let function = ExpressionFunction.named(name) else {
            // `help expressions` lists the aggregates too: one outside group is no typo.
            if let aggregate = Aggregate.Function(rawValue: name.lowercased()) {
                throw ExpressionError("\(aggregate.rawValue)(…) is an aggregate, which only group computes, after its keys: "
                    + "group region \(aggregate.rawValue)(population)", at: ExpressionSpan(name: name, of: span))
            }
            let suggestion = Suggestion.closest(to: name, among: ExpressionFunction.names)
            throw ExpressionError("unknown function '\(name)'" + (suggestion.map { " — did you mean \($0)?" } ?? " — 'help expressions' lists them"),
                                  at: ExpressionSpan(name: name, of: span))
        }
        let most = function.variadic ? Int.max : function.parameters.count
        guard arguments.count >= function.required, arguments.count <= most else {
            throw ExpressionError("\(function.usage) takes \(Self.count(function)), not \(arguments.count)", at: span)
        }
        var bound = try arguments.map(bind)
        if function.name == "count" {
            return BoundExpression(.call(function, bound), .number, span)
        }
        if function.name == "coalesce" {
            guard let common = bound.first(where: { $0.type.element != .null && !$0.isLiteral })?.type.element
                ?? bound.first(where: { $0.type.element != .null })?.type.element else {
                return BoundExpression(.call(function, bound), .null, span)
            }
            for index in bound.indices { bound[index] = try coerce(bound[index], to: common, arguments[index], for: function.name) }
            let isList = bound.contains { $0.type.isList }
            return BoundExpression(.call(function, bound), isList ? .list(common) : common, span)
        }
        let lists = bound.filter { $0.type.isList }
        if lists.count > 1 {
            throw ExpressionError("\(function.name) takes at most one list", at: arguments[bound.lastIndex { $0.type.isList }!].span)
        }
        for index in bound.indices {
            let wanted = function.parameters[min(index, function.parameters.count - 1)]
            bound[index] = try coerce(bound[index], to: wanted, arguments[index], for: function.name)
        }
        let result = function.result ?? bound.first?.type.element ?? .null
        return BoundExpression(.call(function, bound), lists.isEmpty ? result : .list(result), span)
    }

    private static func count(_ function: ExpressionFunction) -> String {
        let most = function.parameters.count
        if function.variadic { return "\(function.required) or more arguments" }
        if function.required == most { return most == 1 ? "one argument" : "\(most) arguments" }
        return "\(function.required) to \(most) arguments"
    }

    // MARK: - types

    /// The value as `type`: literals read as it (`'2024-06-30'` as a date), numbers and dates
    /// as text where text is wanted; anything else of another type is an error about the operand.
    private func coerce(_ bound: BoundExpression, to type: ValueType, _ expression: Expression, for op: String) throws -> BoundExpression {
        let have = bound.type.element
        if have == type || have == .null || type == .null { return bound }
        let needs = "'\(op)' needs " + (type == .number ? "numbers" : type == .date ? "dates" : type == .boolean ? "true or false" : "text")
        switch (bound.kind, type) {
        case let (.text(text), .number):
            guard let number = NumericText.value(of: text) else { throw ExpressionError("'\(text)' is not a number; \(needs)", at: expression.span) }
            return BoundExpression(.number(number), .number, bound.span)
        case let (.text(text), .date):
            guard let seconds = CalendarDate.seconds(text) else {
                throw ExpressionError("'\(text)' is not a date (write 2024-06-30); \(needs)", at: expression.span)
            }
            return BoundExpression(.number(seconds), .date, bound.span)
        case let (.text(text), .boolean):
            switch text.lowercased() {
            case "true": return BoundExpression(.boolean(true), .boolean, bound.span)
            case "false": return BoundExpression(.boolean(false), .boolean, bound.span)
            default: throw ExpressionError("'\(text)' is not true or false; \(needs)", at: expression.span)
            }
        case (_, .text) where have != .object:
            if case let .number(_, written) = expression.node, case .number = bound.kind {
                return BoundExpression(.text(written), .text, bound.span)
            }
            return BoundExpression(.cast(bound), bound.type.withElement(.text), bound.span)
        default:
            throw ExpressionError("\(Self.shown(expression)) is \(bound.type.withArticle); \(needs)", at: expression.span)
        }
    }

    private func require(_ bound: BoundExpression, _ type: ValueType, _ expression: Expression, for op: String) throws {
        _ = try coerce(bound, to: type, expression, for: op)
    }

    /// `'name'`: an operand as the message names it.
    static func shown(_ expression: Expression) -> String { "'\(expression)'" }

    /// The text of a literal value on the right of a field (`Europe`, `5`, `2014-12-10`, `true`).
    static func literalText(_ expression: Expression) -> String? {
        switch expression.node {
        case let .text(text, _): text
        case let .number(_, written): written
        case let .date(_, written): written
        case let .boolean(value): value ? "true" : "false"
        default: nil
        }
    }

    /// An error of the catalog's, pointing at `span`.
    static func located(_ error: Error, at span: ExpressionSpan) -> Error {
        if let located = error as? ExpressionError, located.span != nil { return located }
        return ExpressionError("\(error)", at: span)
    }
}

extension BoundExpression {
    var isLiteral: Bool {
        switch kind {
        case .number, .text, .boolean, .null: true
        default: false
        }
    }
}

extension ExpressionSpan {
    /// A call's name alone: the first characters of its first word.
    init(name: String, of span: ExpressionSpan) {
        self = span
        endWord = span.startWord
        endCharacter = span.startCharacter + name.count
        endQuoted = span.startQuoted
    }
}
