import AlmanacCore
import Foundation

/// The results of an attached table: the question asked so far (search, filters, sort,
/// drill-downs), which every command puts to the database; nothing of the table is held here.
public struct PostgresResults: ResultsSource {
    public let table: PostgresTable
    public private(set) var query: TableQuery
    /// The rows the query matches, once counted (pages need it; the question changes it).
    private var counted: Int?
    /// The last page fetched, its size and its last row's key: the next page of the same size
    /// continues after that key (an index scan) rather than skipping rows (`OFFSET`), where the
    /// order allows it — and a row deleted behind the reader moves nothing into the gap.
    private var shownPage: (start: Int, size: Int, lastKey: [String?]?)?
    /// The columns pages show: computed ones are added to each row by the database.
    private var columns: [String] = []

    /// Into a pipe, where an in-memory listing has no pages, a table's listing stops here (and
    /// says so): its rows may be millions. `set pagesize` pages it; `export FILE` writes it all.
    public static let unpagedLimit = 1000

    /// How many names or values TAB asks the database for.
    static let completionLimit = 200

    public init(table: PostgresTable, query: TableQuery = TableQuery()) {
        self.table = table
        self.query = query
    }

    public var datasetNames: [String] { [table.name] }
    public var inMemory: ResultSet? { nil }
    public var unpagedLimit: Int? { Self.unpagedLimit }
    public var hasSteps: Bool { query != TableQuery() }
    public var fieldsInUse: [String] { query.fieldsInUse }
    public var sortFields: [String] { query.sortFields }
    public var defaultColumns: [String]? { table.schema.layout.listFields }
    public var recordKeys: [String]? { table.schema.columns.map(\.name) }
    public var primaryKey: [String] { table.schema.primaryKey.map { table.schema.columns[$0].name } }
    public var measured: PostgresResults? {
        guard query.measures else { return nil }
        return PostgresResults(table: table, query: TableQuery(near: query.near, outside: query.outside, reach: query.reach))
    }

    /// The step as SQL's question: the database answers it.
    public func applying(_ step: QueryStep, cancellation: Cancellation) throws -> PostgresResults {
        var query = self.query
        switch step {
        case let .search(text): query = TableQuery(search: text)  // as in memory, from the whole table
        case let .filter(expression): query.filters.append(expression)
        case let .sort(keys): query.sort(by: keys)
        case .clear: query = query.cleared()
        case let .drill(spec, row): query.drills.append(GroupDrill(fields: spec.fields, values: row.values, numbers: row.numbers))
        case let .limit(count): query = query.limited(to: count)
        case .clearLimits:
            guard query.isLimited else { throw QueryError.invalid("the results have no limit to clear") }
            query = query.withoutLimits()
        case let .near(spec):
            // As in memory, from every row of the table.
            query = TableQuery(near: try nearQuery(spec, cancellation: cancellation))
        case let .within(spec):
            // As in memory, from every row of the table.
            query = TableQuery(inside: try withinQuery(spec, cancellation: cancellation))
        case let .outside(spec):
            // As in memory, from every row of the table.
            query = TableQuery(outside: try outsideQuery(spec, cancellation: cancellation))
        case let .reach(spec):
            // As in memory, from every row of the table.
            query = TableQuery(reach: try reachQuery(spec, cancellation: cancellation))
        }
        // Checked now, as memory checks a step when it applies it: an unknown field is an error.
        _ = try table.countSQL(query)
        return PostgresResults(table: table, query: query)
    }

    public mutating func count(fresh: Bool, cancellation: Cancellation) throws -> Int {
        if !fresh, let counted { return counted }
        let count = try table.count(query, cancellation: cancellation)
        counted = count
        return count
    }

    public mutating func isEmpty(cancellation: Cancellation) throws -> Bool {
        if let counted { return counted == 0 }
        return try !table.hasRows(query, cancellation: cancellation)
    }

    /// The database sends the one page asked for.
    public mutating func page(start: Int, size: Int, cancellation: Cancellation) throws -> ResultsPage {
        let after = shownPage.flatMap { $0.start + $0.size == start && $0.size == size ? $0.lastKey : nil }
        let fetched = try table.page(query, offset: start, limit: size, after: after, computed: columns, cancellation: cancellation)
        shownPage = (start, size, fetched.lastKey)
        let rows = fetched.rows
        return ResultsPage(results: .all([rows]), range: 0..<rows.count, defaultColumns: rows.layout.listFields)
    }

    public func record(at offset: Int, cancellation: Cancellation) throws -> RecordRef {
        let page = try table.page(query, offset: offset, limit: 1, cancellation: cancellation)
        guard page.count == 1 else { throw QueryError.invalid("the results changed: row #\(offset + 1) is gone") }
        return RecordRef(dataset: page.rows, row: 0)
    }

    public func find(_ text: String, limit: Int, cancellation: Cancellation) throws -> RecordMatch {
        let found = try table.find(text.trimmingCharacters(in: .whitespaces), limit: limit, cancellation: cancellation)
        switch found.total {
        case 0: return .none(similar: [])
        case 1: return .one(RecordRef(dataset: found.rows, row: 0))
        default:
            let candidates = (0..<found.rows.count).map { RecordRef(dataset: found.rows, row: $0) }
            // Each by its primary key, which `show` finds it by; without one, by its number in
            // the table, as a dataset in memory numbers its records.
            let key = table.schema.primaryKey.count == 1 ? table.schema.columns[table.schema.primaryKey[0]].name : nil
            let identities = candidates.map { target -> String? in
                if let key { return target.dataset.displayText(of: target.dataset.compile(FieldPath(key)), row: target.row) }
                return found.places.indices.contains(target.row) ? found.places[target.row].map { "#\($0)" } : nil
            }
            return .several(candidates, total: found.total, identities: identities)
        }
    }

    public mutating func showing(_ columns: [String]) { self.columns = columns }

    @discardableResult
    public func checkExpression(_ expression: AlmanacCore.Expression, cancellation: Cancellation) throws -> ValueType {
        try table.checkExpression(expression, in: query)
    }

    /// `GROUP BY` in the database.
    public mutating func group(_ spec: GroupSpec, cancellation: Cancellation) throws -> GroupAnswer {
        // LIMIT in the server: a table of millions of distinct values sends only the groups shown.
        let groups = try table.group(query, by: spec, limit: spec.limit, cancellation: cancellation)
        let total = try count(fresh: false, cancellation: cancellation)
        return GroupAnswer(spec: spec, count: groups.count, total: total, groups: groups.first?.groups) { index in
            let row = groups[index]
            return Group.Row(values: row.values, count: row.count, numbers: row.numbers, aggregates: row.aggregates.map(AggregateValue.init(text:)))
        }
    }

    /// The database profiles its own rows (DescribeSQL).
    public func describe(_ fields: [String], cancellation: Cancellation) throws -> DescribeAnswer {
        let profiles = try table.describe(query, fields: fields.isEmpty ? nil : fields, cancellation: cancellation)
        return DescribeAnswer(profiles: profiles.map { (table.name, $0) })
    }

    /// The database bins its own rows (HistogramSQL).
    public func histogram(_ field: String, bins: Int?, logarithmic: Bool, cancellation: Cancellation) throws -> HistogramAnswer {
        try table.histogram(query, field: field, bins: bins, logarithmic: logarithmic, cancellation: cancellation)
    }

    /// The columns typed as memory types the same values, how many rows have each, an example,
    /// and the type the database stores them as; keys inside JSON columns as dotted paths.
    public func fields(cancellation: Cancellation) throws -> FieldListing {
        let rows = try table.fields(cancellation: cancellation).map { field in
            FieldListing.Row(path: field.path, type: field.type, records: field.count, example: field.example, stored: field.stored)
        }
        var notes = [FieldListing.nameNote(table.schema.layout, fields: rows.map(\.path))].compactMap { $0 }
        let schema = table.schema
        if !schema.primaryKey.isEmpty {
            notes.append("show finds a row by its primary key: \(schema.primaryKey.map { schema.columns[$0].name }.joined(separator: ", "))")
        }
        return FieldListing(rows: rows, sections: [], notes: notes)
    }

    public func checkField(_ name: String, cancellation: Cancellation) throws -> String {
        guard !name.isEmpty else { throw QueryError.unknownField(name, suggestion: nil) }
        try table.checkField(name)
        return name
    }

    /// Read through a cursor, a batch at a time.
    @discardableResult
    public func forEachBatch(cancellation: Cancellation, _ body: (ResultSet) throws -> Void) throws -> Int {
        // The columns shown: computed ones come from the database with each batch.
        try table.export(query, computed: columns, cancellation: cancellation) { try body(.all([$0])) }
    }

    public func completionFields() -> [String] {
        // The distance a near, an outside or a reach computes is read before a column of its name.
        let step = query.measures ? [NearQuery.column] : []
        return step + table.schema.columns.map(\.name).filter { $0 != NearQuery.column }
    }

    /// Paths across the links declared from the table (`owner_id.` → the owners' columns).
    public func completionPaths(continuing fragment: String) -> [(path: String, isLink: Bool)] {
        table.schema.links.completionPaths(continuing: fragment)
    }

    /// A prefix query with a limit, given up after a moment.
    public func completionValues(of field: String, prefix: String, limit: Int) -> [String]? {
        table.completeValues(of: field, prefix: prefix, limit: min(limit, Self.completionLimit))
    }

    public func completionNames(prefix: String, limit: Int) -> [String]? {
        table.completeNames(prefix, limit: min(limit, Self.completionLimit))
    }

    /// A `GROUP BY` with a limit; for TAB given `quickCountSeconds` (then nil: TAB offers the
    /// values without counts), cancellable either way.
    public func valueCounts(of field: String, where condition: FilterExpression?, prefix: String, limit: Int, quick: Bool,
                            cancellation: Cancellation) throws -> [ValueCount]? {
        var query = self.query
        if let condition { query.filters.append(condition) }
        guard quick else { return try table.valueCounts(query, of: field, prefix: prefix, limit: limit, cancellation: cancellation) }
        return try? table.valueCounts(query, of: field, prefix: prefix, limit: min(limit, Self.completionLimit * 5),
                                      timeout: Self.quickCountSeconds, cancellation: cancellation)
    }

    /// How long TAB waits for counts from the database.
    static let quickCountSeconds = 0.1

    public var conditions: [FilterExpression] { query.conditions }
}

extension TableQuery {
    /// The filters and drill-downs since the search, as `ResultsSource.conditions` says them.
    var conditions: [FilterExpression] {
        var steps: [QueryStep] = []
        if case let .first(_, inner)? = within { steps = inner.conditions.map(QueryStep.filter) }
        steps += filters.map(QueryStep.filter)
        steps += drills.map { .drill(GroupSpec(fields: $0.fields), Group.Row(values: $0.values, count: 0, numbers: $0.numbers)) }
        return QueryStep.conditions(of: steps)
    }
}
