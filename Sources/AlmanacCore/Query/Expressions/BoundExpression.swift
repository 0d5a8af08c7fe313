import Foundation

/// An expression checked against a dataset's (or a table's) fields: every name resolved, every
/// node typed, literals read as what they are compared with, conversions explicit. What the
/// evaluator runs and the SQL writer translates; nothing about it is decided per row.
public struct BoundExpression: @unchecked Sendable {
    public indirect enum Kind {
        case number(Double)
        case text(String)
        case boolean(Bool)
        case null
        /// A field as the dataset spells it; `container`: a path that ends at an object.
        case field(String, container: Bool)
        /// A path across links (`homeworld.climate`): computed by gathering through the links.
        case linked(LinkPath)
        case negate(BoundExpression)
        case arithmetic(ArithmeticOperator, BoundExpression, BoundExpression)
        /// `=`, `~`, `<`…, `=~` (negations are `not` around them, made by the binder).
        case comparison(ComparisonOperator, BoundExpression, BoundExpression)
        /// `field = ''regex''`: the pattern compiled once.
        case match(BoundExpression, NSRegularExpression, pattern: String)
        /// `FIELD OP VALUE` as filters have always compared (lists, SWAPI's links, numbers as
        /// text, containment in a number's digits): run by the filter's own comparison.
        case legacy(field: String, op: FilterExpression.Operator, value: String)
        case isNull(BoundExpression, negated: Bool)
        case and(BoundExpression, BoundExpression)
        case or(BoundExpression, BoundExpression)
        /// True when the inner is not true (absent reads as false, as filters read it).
        case not(BoundExpression)
        case call(ExpressionFunction, [BoundExpression])
        /// A value read as another type: text as a number or a date, anything as text.
        case cast(BoundExpression)
    }

    public let kind: Kind
    /// The value's type; a list's when it is one.
    public let type: ValueType
    public let span: ExpressionSpan

    init(_ kind: Kind, _ type: ValueType, _ span: ExpressionSpan) {
        self.kind = kind
        self.type = type
        self.span = span
    }

    /// The fields it reads.
    public var fields: [String] {
        var found: [String] = []
        func visit(_ node: BoundExpression) {
            switch node.kind {
            case let .field(name, _): if !found.contains(name) { found.append(name) }
            case let .linked(path): if !found.contains(path.text) { found.append(path.text) }
            case let .legacy(field, _, _): if !found.contains(field) { found.append(field) }
            case .number, .text, .boolean, .null: break
            case let .negate(inner), let .isNull(inner, _), let .not(inner), let .cast(inner), let .match(inner, _, _): visit(inner)
            case let .arithmetic(_, left, right), let .comparison(_, left, right), let .and(left, right), let .or(left, right):
                visit(left)
                visit(right)
            case let .call(_, arguments): arguments.forEach(visit)
            }
        }
        visit(self)
        return found
    }
}

/// An error in an expression, found before anything runs, with where it is (nil: something
/// is missing at the end): a type error (`'name' is text; '/' needs numbers`) or, when
/// `isSyntax`, words that do not parse.
public struct ExpressionError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var span: ExpressionSpan?
    public var isSyntax = false
    public var description: String { message }

    public init(_ message: String, at span: ExpressionSpan? = nil) {
        self.message = message
        self.span = span
    }

    public static func syntax(_ message: String, at span: ExpressionSpan? = nil) -> ExpressionError {
        var error = ExpressionError(message, at: span)
        error.isSyntax = true
        return error
    }
}

/// What a binder needs to know of the fields: implemented for a dataset in memory
/// (`DatasetFields`) and for an attached table (AlmanacPostgres).
public protocol ExpressionCatalog {
    /// The field's type and spelling; nil when there is no such field.
    func field(_ name: String) -> (name: String, type: ValueType, container: Bool)?
    /// The error for an unknown field (with the closest name as a suggestion).
    func unknownField(_ name: String) -> Error
    /// Checks `FIELD OP VALUE` as filters always have (`population = abc` is an error).
    func checkComparison(field: String, op: FilterExpression.Operator, value: String) throws
    /// A name that is no field but a path across links (`homeworld.climate`); nil when it is
    /// neither, an error when it crosses a field that is not a link.
    func linkPath(_ name: String) throws -> LinkPath?
    /// The records' dataset's name when `name` is `DatasetField` here: the same text in every row.
    func datasetName(ifNamed name: String) -> String?
}

extension ExpressionCatalog {
    public func linkPath(_ name: String) throws -> LinkPath? { nil }
    public func datasetName(ifNamed name: String) -> String? { nil }
}
