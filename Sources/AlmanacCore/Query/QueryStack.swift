/// One step that changes the current results, as a value: the in-memory engine evaluates it
/// here (`QueryStack`); a database backend can translate it (search, WHERE, ORDER BY …).
public enum QueryStep: Sendable, Equatable {
    /// `search TEXT`: names containing every word, over the datasets in scope (not the results).
    case search(String)
    /// `filter EXPR`: the results narrowed.
    case filter(FilterExpression)
    /// `sort KEY, …`: the results ordered.
    case sort([SortKey])
    /// `show #N` after a group listing: the records of one group.
    case drill(GroupSpec, Group.Row)
    /// `filter clear`: every record of the scope again.
    case clear
}

/// The current results as steps over the datasets in scope, each step's results kept: `back`
/// pops the last one, and the fields the steps name (sort keys, filter fields) are known.
public struct QueryStack: Sendable {
    public let datasets: [Dataset]
    private let everything: ResultSet
    public private(set) var steps: [(step: QueryStep, results: ResultSet)] = []

    public init(datasets: [Dataset]) {
        self.datasets = datasets
        everything = .all(datasets)
    }

    /// The results after the last step.
    public var results: ResultSet { steps.last?.results ?? everything }

    public var isEmpty: Bool { steps.isEmpty }

    /// Evaluates `step` on the current results and makes its results current.
    @discardableResult
    public mutating func apply(_ step: QueryStep, cancellation: Cancellation = .never) throws -> ResultSet {
        let results = try Self.evaluate(step, on: self.results, everything: everything, cancellation: cancellation)
        steps.append((step, results))
        return results
    }

    /// Takes the last step back; nil when there was none.
    @discardableResult
    public mutating func pop() -> QueryStep? { steps.popLast()?.step }

    /// The keys of the sort in force (the last since a search or clear), which a listing keeps
    /// whole when it is cut to fit.
    public var sortFields: [String] {
        for (step, _) in steps.reversed() {
            switch step {
            case let .sort(keys): return keys.map(\.field)
            case .search, .clear: return []
            case .filter, .drill: continue
            }
        }
        return []
    }

    /// The fields the steps since the last search or clear use: sort keys, then filter fields.
    public var fieldsInUse: [String] {
        var sortFields: [String] = []
        var filterFields: [String] = []
        for (step, _) in steps.reversed() {
            switch step {
            case let .sort(keys): if sortFields.isEmpty { sortFields = keys.map(\.field) }
            case let .filter(expression): filterFields = expression.fields + filterFields
            case let .drill(spec, _): filterFields = spec.fields + filterFields
            case .search, .clear: return unique(sortFields + filterFields)
            }
        }
        return unique(sortFields + filterFields)
    }

    private func unique(_ fields: [String]) -> [String] {
        var seen = Set<String>()
        return fields.filter { seen.insert($0).inserted }
    }

    /// The in-memory engine: one step over `results`.
    public static func evaluate(_ step: QueryStep, on results: ResultSet, everything: ResultSet,
                                cancellation: Cancellation) throws -> ResultSet {
        switch step {
        case let .search(text): return try Search.run(text, in: results.datasets, cancellation: cancellation)
        case let .filter(expression): return try Filter.run(expression, on: results, cancellation: cancellation)
        case let .sort(keys): return try Sort.run(results, by: keys, cancellation: cancellation)
        case let .drill(spec, row): return try Group.members(of: row, by: spec, in: results, cancellation: cancellation)
        case .clear: return everything
        }
    }
}
