/// A filter's conditions as people read them in explanations (`population > 1,000,000,000`),
/// and split at their top-level `and`s.
extension FilterExpression {
    /// The conditions joined by the top-level `and`s, in the order written (a computed
    /// condition's `and`s too: `population / area > 1000 and region = Asia`).
    public var conjuncts: [FilterExpression] {
        switch self {
        case let .and(left, right): return left.conjuncts + right.conjuncts
        case let .computed(expression):
            if case let .and(left, right) = expression.node { return FilterExpression(left).conjuncts + FilterExpression(right).conjuncts }
            return [self]
        default: return [self]
        }
    }

    /// The condition as people read it: numbers grouped as listings group them (`1e9` →
    /// `1,000,000,000`, a year or an identifier as written), text as typed.
    public var shown: String {
        switch self {
        case let .comparison(field, op, value): return "\(field) \(op.rawValue) \(Self.shownValue(value, field: field))"
        case let .and(left, right): return "\(left.shownInAnd) and \(right.shownInAnd)"
        case let .or(left, right): return "\(left.shown) or \(right.shown)"
        case let .not(inner):
            if case .comparison = inner { return "not \(inner.shown)" }
            return "not (\(inner.shown))"
        case let .computed(expression): return expression.description
        }
    }

    private var shownInAnd: String {
        if case .or = self { return "(\(shown))" }
        return shown
    }

    /// A plain number grouped in thousands (unless the field holds years or identifiers);
    /// anything else (`100BBY`, `Europe`) as typed.
    public static func shownValue(_ value: String, field: String) -> String {
        guard let number = Double(value), number.isFinite, NumericText.literal(value) == number else { return value }
        return ValueText.number(number, field: field)
    }
}
