/// Runs a `FilterExpression` over a result set. Strings compare ignoring case and diacritics,
/// numbers numerically; a path that reaches several values (lists, nested lists of objects)
/// matches when any of them does, and `!=`/`!~` mean "none of them".
public enum Filter {
    public static func run(_ expression: FilterExpression, on results: ResultSet, cancellation: Cancellation = .never) throws -> ResultSet {
        try validate(expression, against: results.datasets)
        var compiled = results.datasets.map { CompiledFilter(expression, dataset: $0) }
        var kept: [ResultSet.Item] = []
        for (position, item) in results.items.enumerated() {
            if position & 0xFFF == 0 { try cancellation.checkpoint() }
            if compiled[item.dataset].matches(row: item.row) { kept.append(item) }
        }
        return results.with(kept)
    }

    /// Unknown fields and values of the wrong type are errors before anything runs.
    public static func validate(_ expression: FilterExpression, against datasets: [Dataset]) throws {
        try check(expression, datasets)
    }

    private static func check(_ expression: FilterExpression, _ datasets: [Dataset]) throws {
        switch expression {
        case let .and(left, right), let .or(left, right):
            try check(left, datasets)
            try check(right, datasets)
        case let .not(inner):
            try check(inner, datasets)
        case let .comparison(field, op, value):
            let known = datasets.compactMap { FieldLookup.field(field, in: $0) }
            guard !known.isEmpty else {
                let all = Set(datasets.flatMap { FieldLookup.names(in: $0) })
                throw QueryError.unknownField(field, suggestion: Suggestion.closest(to: field, among: all.sorted()))
            }
            if op != .contains, op != .notContains, known.allSatisfy({ $0.isNumeric }),
               Double(value) == nil, value.lowercased() != "null" {
                throw QueryError.typeMismatch(field: field, type: known[0].typeDescription,
                                              message: "'\(value)' is not a number")
            }
        }
    }
}

/// Field names as users may type them: every inferred path, and the containers above them
/// (`translations` reaches all translations).
public enum FieldLookup {
    public static func field(_ name: String, in dataset: Dataset) -> FieldCatalog.Field? {
        let fields = dataset.fields
        if let field = fields.field(name) { return field }
        let prefix = name + "."
        let children = fields.fields.filter { $0.path.hasPrefix(prefix) }
        guard let first = children.first else { return nil }
        var merged = first
        merged.path = name
        merged.inList = true
        for child in children.dropFirst() {
            merged.kinds.formUnion(child.kinds)
            merged.count = max(merged.count, child.count)
        }
        merged.values = nil
        return merged
    }

    /// Every name `field(_:in:)` accepts: paths and their containers.
    public static func names(in dataset: Dataset) -> [String] {
        var names: [String] = []
        var seen = Set<String>()
        for path in dataset.fields.paths {
            let parts = path.split(separator: ".")
            for length in 1...parts.count {
                let name = parts.prefix(length).joined(separator: ".")
                if seen.insert(name).inserted { names.append(name) }
            }
        }
        return names
    }
}

/// Errors of queries, worded for the user.
public enum QueryError: Error, Equatable, CustomStringConvertible {
    case unknownField(String, suggestion: String?)
    case typeMismatch(field: String, type: String, message: String)
    case invalid(String)

    public var description: String {
        switch self {
        case let .unknownField(field, suggestion):
            if let suggestion { return "unknown field '\(field)' — did you mean '\(suggestion)'?" }
            return "unknown field '\(field)' — 'fields' lists them"
        case let .typeMismatch(field, type, message):
            return "\(field) is \(type.hasPrefix("list") ? "a " : "")\(type == "number" ? "a number" : type == "text" ? "text" : type); \(message)"
        case let .invalid(message):
            return message
        }
    }
}

/// A filter resolved against one dataset: paths compiled, the value folded and read as a
/// number once, and string results remembered per distinct string (equal short strings share
/// one node, so a million stations in one country are one comparison).
struct CompiledFilter {
    private indirect enum Node {
        case comparison(Int)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
    }

    private struct Comparison {
        var path: Dataset.CompiledPath?
        var op: FilterExpression.Operator
        var foldedValue: String
        var numberValue: Double?
        var cache: [UInt64: Bool] = [:]
    }

    private let dataset: Dataset
    private var comparisons: [Comparison] = []
    private var root: Node!

    init(_ expression: FilterExpression, dataset: Dataset) {
        self.dataset = dataset
        root = compile(expression)
    }

    private mutating func compile(_ expression: FilterExpression) -> Node {
        switch expression {
        case let .and(left, right): return .and(compile(left), compile(right))
        case let .or(left, right): return .or(compile(left), compile(right))
        case let .not(inner): return .not(compile(inner))
        case let .comparison(field, op, value):
            let exists = FieldLookup.field(field, in: dataset) != nil
            comparisons.append(Comparison(
                path: exists ? dataset.compile(FieldPath(field)) : nil,
                op: op, foldedValue: Folding.fold(value), numberValue: Double(value)
            ))
            return .comparison(comparisons.count - 1)
        }
    }

    mutating func matches(row: Int) -> Bool { evaluate(root, row) }

    private mutating func evaluate(_ node: Node, _ row: Int) -> Bool {
        switch node {
        case let .and(left, right): return evaluate(left, row) && evaluate(right, row)
        case let .or(left, right): return evaluate(left, row) || evaluate(right, row)
        case let .not(inner): return !evaluate(inner, row)
        case let .comparison(index): return compare(index, row)
        }
    }

    private mutating func compare(_ index: Int, _ row: Int) -> Bool {
        guard let path = comparisons[index].path else { return false }
        let op = comparisons[index].op
        // != and !~ are "no value matches" of = and ~.
        let positive: FilterExpression.Operator = op == .notEqual ? .equal : (op == .notContains ? .contains : op)
        var matched = false
        dataset.forEachValue(of: path, row: row) { value in
            if !matched, test(value, index, positive) { matched = true }
        }
        return op == .notEqual || op == .notContains ? !matched : matched
    }

    private mutating func test(_ value: FieldValue, _ index: Int, _ op: FilterExpression.Operator) -> Bool {
        switch value {
        case let .number(number):
            return compareNumbers(number, index, op, text: NumberFormat.plain(number))
        case let .text(text):
            return compareText(text, index, op)
        case let .node(node):
            let document = dataset.document
            switch document.kind(at: node) {
            case .number:
                return compareNumbers(document.number(at: node), index, op, text: document.string(at: node))
            case .string:
                let key = document.nodes[node]
                if let known = comparisons[index].cache[key] { return known }
                let result = compareText(document.string(at: node), index, op)
                comparisons[index].cache[key] = result
                return result
            case .true: return compareText("true", index, op)
            case .false: return compareText("false", index, op)
            case .null: return compareText("null", index, op)
            case .array, .object: return false
            }
        }
    }

    private func compareNumbers(_ number: Double, _ index: Int, _ op: FilterExpression.Operator, text: String) -> Bool {
        let comparison = comparisons[index]
        guard let wanted = comparison.numberValue, op != .contains else {
            return compareFolded(Folding.fold(text), comparison.foldedValue, op)
        }
        switch op {
        case .equal: return number == wanted
        case .less: return number < wanted
        case .lessOrEqual: return number <= wanted
        case .greater: return number > wanted
        case .greaterOrEqual: return number >= wanted
        default: return false
        }
    }

    private func compareText(_ text: String, _ index: Int, _ op: FilterExpression.Operator) -> Bool {
        let comparison = comparisons[index]
        // Against a number, text orders only when it reads as one ("200" > 100, as SWAPI writes
        // numbers); words like "unknown" are neither more nor less than a number.
        if op.isOrdering, comparison.numberValue != nil {
            guard let number = NumericText.value(of: text) else { return false }
            return compareNumbers(number, index, op, text: text)
        }
        return compareFolded(Folding.fold(text), comparison.foldedValue, op)
    }

    private func compareFolded(_ folded: String, _ wanted: String, _ op: FilterExpression.Operator) -> Bool {
        switch op {
        case .equal: return folded == wanted
        case .contains: return folded.contains(wanted)
        case .less: return folded < wanted
        case .lessOrEqual: return folded <= wanted
        case .greater: return folded > wanted
        case .greaterOrEqual: return folded >= wanted
        default: return false
        }
    }
}
