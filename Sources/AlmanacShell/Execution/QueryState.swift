import AlmanacCore
import AlmanacPostgres

/// A change `back` can undo.
public enum Undoable: Sendable {
    /// A step of the query (filter, sort, search, drill-down).
    case step
    /// A `columns` change for a dataset, and the choice before it (nil: the default columns).
    case columns(dataset: String, previous: [String]?)
    /// A question put to the attached table in use, and the question before it.
    case table(previous: TableQuery)
}

/// A group listing, kept so `show #N` can list the records of group N.
public struct GroupListing: Sendable {
    public enum Rows: Sendable {
        /// Groups counted in memory.
        case memory(Groups)
        /// Groups an attached table's database counted.
        case table([GroupRow])
    }

    public var spec: GroupSpec
    public var rows: Rows

    public var count: Int {
        switch rows {
        case let .memory(groups): groups.count
        case let .table(rows): rows.count
        }
    }

    /// The step that narrows the results to group `number` (1-based): in memory the group's
    /// records; on a table the rows whose values the database grouped so (`GroupDrill`: the
    /// same expressions as the `GROUP BY`, so `<none>` and each value keep exactly their rows).
    func drill(_ number: Int) throws -> QueryStep {
        switch rows {
        case let .memory(groups): return .drill(spec, groups[number - 1])
        case let .table(rows):
            let row = rows[number - 1]
            return .drill(spec, Group.Row(values: row.values, count: row.count, numbers: row.numbers))
        }
    }
}

/// How commands change the current results: steps on a stack, undone one at a time.
extension Session {
    /// The current results, or every record of the datasets in scope.
    public func currentResults() throws -> ResultSet {
        if let query { return query.results }
        return ResultSet.all(try datasetsInScope())
    }

    /// Applies one step to the current results; its results' first page is the answer.
    public func apply(_ step: QueryStep) throws -> CommandResult {
        if let table = tableInUse() { return try apply(step, to: table) }
        var stack = try query ?? QueryStack(datasets: datasetsInScope())
        // A search starts from the datasets as they are now (a reload may have replaced them).
        if case .search = step {
            let current = try datasetsInScope()
            if current.count != stack.datasets.count || zip(current, stack.datasets).contains(where: { $0 !== $1 }) {
                stack = QueryStack(datasets: current)
                undoable.removeAll { if case .step = $0 { true } else { false } }
            }
        }
        let results = try stack.apply(step, cancellation: cancellation)
        query = stack
        undoable.append(.step)
        return show(results)
    }

    /// The step as SQL's question to an attached table: the database answers it.
    private func apply(_ step: QueryStep, to table: TableResults) throws -> CommandResult {
        var query = table.query
        switch step {
        case let .search(text): query = TableQuery(search: text)  // as in memory, from the whole table
        case let .filter(expression): query.filters.append(expression)
        case let .sort(keys):
            // Ties keep the order before (as a stable sort in memory keeps them).
            let fields = Set(keys.map(\.field))
            query.sort = keys + query.sort.filter { !fields.contains($0.field) }
        case .clear: query = TableQuery()
        case let .drill(spec, row): query.drills.append(GroupDrill(fields: spec.fields, values: row.values, numbers: row.numbers))
        }
        let answer = try TableListing.show(table.asking(query), in: self)
        undoable.append(.table(previous: table.query))
        return answer
    }

    /// Pins the current results (so paging through them survives a reload) and returns them.
    func pinnedResults() throws -> ResultSet {
        if query == nil { query = QueryStack(datasets: try datasetsInScope()) }
        return query!.results
    }

    /// Forgets the query (an attached table's too), the undo history and the last group listing (`use`).
    func resetQuery() {
        query = nil
        tableResults = nil
        undoable = []
        lastGroups = nil
        page = 1
    }

    /// Shows the first page of `results` (the current results).
    public func show(_ results: ResultSet) -> CommandResult {
        page = 1
        lastGroups = nil
        return Listing.result(results, page: 1, in: self)
    }

    /// The fields a listing of `results` shows, and whether the user chose them: the chosen
    /// columns (else the dataset's listing fields), then the fields the sort and filters use.
    func listingFields(for results: ResultSet) -> (fields: [String], chosen: Bool) {
        guard let dataset = results.datasets.first, !results.spansDatasets else { return ([], false) }
        let chosen = chosenColumns[dataset.name]
        var fields = chosen ?? dataset.layout.listFields
        for field in query?.fieldsInUse ?? [] where !ComputedField.isAmong(fields, field) { fields.append(field) }
        return (fields, chosen != nil)
    }
}
