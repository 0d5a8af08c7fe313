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
    /// `limit N`: the first N results, in their order.
    case limit(Int)
    /// `limit` alone: the results as the steps since the last search make them without their limits.
    case clearLimits
    /// `near REF within N km`: from every record of the scope, those within N km, nearest first.
    case near(NearSpec)
    /// `within COUNTRY`: from every record of the scope, those inside the country's outline.
    case within(WithinSpec)
    /// `outside`: from every record of the scope, those outside their own country's outline.
    case outside(OutsideSpec)
    /// `reach COUNTRY N`: the countries within N borders.
    case reach(ReachSpec)
}

/// The current results as steps over the datasets in scope. The steps are a chain of values
/// shared by every stack made from this one (a step costs its own work and memory, whatever
/// came before); only the current results are kept here — `back` keeps earlier stacks whole.
public struct QueryStack: Sendable {
    public let datasets: [Dataset]
    private var last: StepNode?
    private var current: ResultSet?

    /// One step and the steps before it, with the fields they use so far (worked out once per
    /// step, so a listing after thousands of filters does not walk them all).
    private final class StepNode: Sendable {
        let step: QueryStep
        let before: StepNode?
        /// The last sort's keys and the filters' and drill-downs' fields, each field once, since
        /// the last search or clear.
        let sortFields: [String]
        let filterFields: [String]

        init(_ step: QueryStep, after before: StepNode?) {
            self.step = step
            self.before = before
            var sortFields = before?.sortFields ?? []
            var filterFields = before?.filterFields ?? []
            switch step {
            case let .sort(keys): sortFields = keys.map(\.field)
            case let .filter(expression): filterFields += expression.fields.filter { !filterFields.contains($0) }
            case let .drill(spec, _): filterFields += spec.fields.filter { !filterFields.contains($0) }
            case .search, .clear, .near, .within, .outside, .reach: (sortFields, filterFields) = ([], [])
            case .limit, .clearLimits: break
            }
            self.sortFields = sortFields
            self.filterFields = filterFields
        }
    }

    public init(datasets: [Dataset]) {
        self.datasets = datasets
    }

    /// The results after the last step.
    public var results: ResultSet { current ?? .all(datasets) }

    public var isEmpty: Bool { last == nil }

    /// The steps, first to last.
    public var steps: [QueryStep] {
        var steps: [QueryStep] = []
        var node = last
        while let step = node?.step {
            steps.append(step)
            node = node?.before
        }
        return steps.reversed()
    }

    /// Evaluates `step` on the current results and makes its results current.
    @discardableResult
    public mutating func apply(_ step: QueryStep, cancellation: Cancellation = .never) throws -> ResultSet {
        let results = step == .clearLimits ? try withoutLimits(cancellation: cancellation)
            : try Self.evaluate(step, on: self.results, everything: .all(datasets), cancellation: cancellation)
        last = StepNode(step, after: last)
        current = results
        return results
    }

    /// The fields the steps since the last search or clear use: sort keys, then filter fields.
    public var fieldsInUse: [String] {
        guard let last else { return [] }
        var seen = Set<String>()
        return (last.sortFields + last.filterFields).filter { seen.insert($0).inserted }
    }

    /// The in-memory engine: one step over `results`.
    public static func evaluate(_ step: QueryStep, on results: ResultSet, everything: @autoclosure () -> ResultSet,
                                cancellation: Cancellation) throws -> ResultSet {
        switch step {
        case let .search(text): return try Search.run(text, in: results.datasets, cancellation: cancellation)
        case let .filter(expression): return try Filter.run(expression, on: results, cancellation: cancellation)
        case let .sort(keys): return try Sort.run(results, by: keys, cancellation: cancellation)
        case let .drill(spec, row): return try Group.members(of: row, by: spec, in: results, cancellation: cancellation)
        case .clear: return everything()
        case let .limit(count): return results.with(Array(results.items.prefix(count)))
        case .clearLimits: return results
        // Each starts afresh from every record of the scope (the results' datasets), as search does.
        case let .near(spec): return try GeoSteps.near(spec, in: results.datasets, cancellation: cancellation)
        case let .within(spec): return try GeoSteps.within(spec, in: results.datasets, cancellation: cancellation)
        case let .outside(spec): return try GeoSteps.outside(spec, in: results.datasets, cancellation: cancellation)
        case let .reach(spec): return try GeoSteps.reach(spec, in: results.datasets)
        }
    }

    /// The steps since the last search or clear evaluated again without their limits (a
    /// `limit` alone undoes every `limit` since, the later steps kept).
    private func withoutLimits(cancellation: Cancellation) throws -> ResultSet {
        let all = self.steps
        let start = all.lastIndex { if case .search = $0 { true } else { $0 == .clear } } ?? 0
        let steps = all[start...]
        guard steps.contains(where: { if case .limit = $0 { true } else { false } }) else {
            throw QueryError.invalid("the results have no limit to clear")
        }
        var results = ResultSet.all(datasets)
        for step in steps {
            if case .limit = step { continue }
            results = try Self.evaluate(step, on: results, everything: .all(datasets), cancellation: cancellation)
        }
        return results
    }
}
