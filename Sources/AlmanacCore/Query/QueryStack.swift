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
    /// `filter clear`: the filters (and drill-downs, limits) since the last search, near, within,
    /// outside or reach taken away: that step's results again (every record when none), in
    /// the order the sorts since give them.
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
    /// When the last step is a sort: its results, ordered in full only when read past the top.
    private var sorted: SortedResults?

    /// One step and the steps before it, with the fields they use so far (worked out once per
    /// step, so a listing after thousands of filters does not walk them all).
    private final class StepNode: Sendable {
        let step: QueryStep
        let before: StepNode?
        /// The last sort's keys and the filters' and drill-downs' fields, each field once, since
        /// the last search or clear.
        let sortFields: [String]
        let filterFields: [String]
        /// The last step that starts afresh (search, near…), nil for every record, and the
        /// sorts since: what `filter clear` goes back to.
        let start: QueryStep?
        let sorts: [[SortKey]]

        init(_ step: QueryStep, after before: StepNode?) {
            self.step = step
            self.before = before
            var sortFields = before?.sortFields ?? []
            var filterFields = before?.filterFields ?? []
            var (start, sorts) = (before?.start, before?.sorts ?? [])
            switch step {
            case let .sort(keys):
                sortFields = keys.map(\.field)
                sorts.append(keys)
            case let .filter(expression): filterFields += expression.fields.filter { !filterFields.contains($0) }
            case let .drill(spec, _): filterFields += spec.fields.filter { !filterFields.contains($0) }
            case .clear: filterFields = []
            case .search, .near, .within, .outside, .reach:
                (sortFields, filterFields) = ([], [])
                (start, sorts) = (step, [])
            case .limit, .clearLimits: break
            }
            self.sortFields = sortFields
            self.filterFields = filterFields
            self.start = start
            self.sorts = sorts
        }
    }

    public init(datasets: [Dataset]) {
        self.datasets = datasets
    }

    /// Records chosen elsewhere (a path's countries, step by step) as the results, before any step.
    public init(records: ResultSet) {
        datasets = records.datasets
        current = records
    }

    /// The results after the last step.
    public var results: ResultSet {
        // A sort's full order cannot fail once its first records are ordered (the fields are known).
        if let sorted { return (try? sorted.all(cancellation: .never)) ?? sorted.input }
        return current ?? .all(datasets)
    }

    /// The results after the last step; a sort not yet ordered in full is ordered now, or stopped by Ctrl-C.
    public func results(cancellation: Cancellation) throws -> ResultSet {
        if let sorted { return try sorted.all(cancellation: cancellation) }
        return current ?? .all(datasets)
    }

    /// How many records the results hold, without ordering a sort's.
    public var count: Int { sorted?.count ?? current?.count ?? datasets.reduce(0) { $0 + $1.count } }

    /// Records `start..<start+size` of the results: a sort's first pages come from its partial order.
    public func page(start: Int, size: Int, cancellation: Cancellation) throws -> (results: ResultSet, range: Range<Int>) {
        if let sorted { return try sorted.page(start: start, size: size, cancellation: cancellation) }
        let results = try self.results(cancellation: cancellation)
        let end = min(results.count, start + size)
        return (results, min(start, end)..<end)
    }

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
        try push(step, cancellation: cancellation)
        return try results(cancellation: cancellation)
    }

    /// `apply` without reading the results: a sort's are then ordered in full only when
    /// something reads past its first pages (MemoryResults lists them).
    public mutating func push(_ step: QueryStep, cancellation: Cancellation = .never) throws {
        if step == .clearLimits {
            current = try withoutLimits(cancellation: cancellation)
            sorted = nil
        } else if step == .clear {
            current = try restarted(from: last?.start, sortedBy: last?.sorts ?? [], cancellation: cancellation)
            sorted = nil
        } else if case let .limit(count) = step, let sorted {
            // The first records of a sort not yet ordered in full: its partial order has them.
            let first = try sorted.page(start: 0, size: count, cancellation: cancellation)
            current = first.results.with(first.range.map { first.results.items[$0] })
            self.sorted = nil
        } else {
            let before: ResultSet
            switch step {
            case .search: before = sorted?.input ?? current ?? .all(datasets)  // only the datasets matter
            default: before = try results(cancellation: cancellation)
            }
            if case let .sort(keys) = step {
                // Ordered in full only when something reads past the first pages.
                sorted = try SortedResults(before, by: keys, cancellation: cancellation)
                current = nil
            } else {
                current = try Self.evaluate(step, on: before, everything: .all(datasets), cancellation: cancellation)
                sorted = nil
            }
        }
        last = StepNode(step, after: last)
    }

    /// The keys of the sort in force, which a listing cut to fit keeps whole longest.
    public var sortFields: [String] { last?.sortFields ?? [] }

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

    /// What `filter clear` leaves: `start`'s results again (every record when nil), ordered
    /// by `sorts` in turn.
    private func restarted(from start: QueryStep?, sortedBy sorts: [[SortKey]], cancellation: Cancellation) throws -> ResultSet {
        var results = ResultSet.all(datasets)
        if let start { results = try Self.evaluate(start, on: results, everything: results, cancellation: cancellation) }
        for keys in sorts { results = try Sort.run(results, by: keys, cancellation: cancellation) }
        return results
    }

    /// The steps since the last search or clear evaluated again without their limits (a
    /// `limit` alone undoes every `limit` since, the later steps kept).
    private func withoutLimits(cancellation: Cancellation) throws -> ResultSet {
        var node = last
        var steps: [StepNode] = []
        while let step = node {
            steps.append(step)
            if case .search = step.step { break }
            if step.step == .clear { break }
            node = step.before
        }
        steps.reverse()
        guard steps.contains(where: { if case .limit = $0.step { true } else { false } }) else {
            throw QueryError.invalid("the results have no limit to clear")
        }
        var results = ResultSet.all(datasets)
        for node in steps {
            switch node.step {
            case .limit: continue
            // What the clear left, as it left it (no limit before it was kept).
            case .clear: results = try restarted(from: node.start, sortedBy: node.sorts, cancellation: cancellation)
            default: results = try Self.evaluate(node.step, on: results, everything: .all(datasets), cancellation: cancellation)
            }
        }
        return results
    }
}
