import AlmanacCore

/// The results of a table as the shell's commands shape them: a search, filters, a sort. Every
/// command runs it in the database; nothing of the table is held in memory.
///
/// Its parts (filters, `SortKey`) are AlmanacCore's query values, shared with the in-memory engine.
public struct TableQuery: Sendable, Equatable {
    /// `search TEXT`: names containing every word, best matches first.
    public var search: String?
    /// `filter EXPR`, each narrowing the last.
    public var filters: [FilterExpression]
    /// `sort FIELD [asc|desc], …`; ties keep the search's ranking, then the table's order.
    public var sort: [SortKey]
    /// How many of `sort`'s first keys the last `sort` gave (nil: all); the rest, from sorts
    /// before it, only break its ties, and a listing shows only the last sort's (as in memory).
    public var lastSortCount: Int?
    /// `show #N` after `group`: the rows of group N, each narrowing the last.
    public var drills: [GroupDrill]
    /// After `limit N`: the rows this question shapes are the first N another one answers, in
    /// its order (nil: the table's rows).
    public var within: TableLimit?
    /// `near … within N km`: the rows within N km, nearest first, with their distance.
    public var near: NearQuery?
    /// `within COUNTRY`: the rows inside its outline, in the table's order.
    public var inside: WithinQuery?
    /// `outside`: the rows outside their own country's outline, farthest first, with their distance.
    public var outside: OutsideQuery?
    /// `reach COUNTRY N`: the countries within N borders, nearest first, with their distance.
    public var reach: ReachQuery?

    public init(search: String? = nil, filters: [FilterExpression] = [], sort: [SortKey] = [], drills: [GroupDrill] = [],
                within: TableLimit? = nil, near: NearQuery? = nil, inside: WithinQuery? = nil, outside: OutsideQuery? = nil,
                reach: ReachQuery? = nil) {
        self.search = search
        self.filters = filters
        self.sort = sort
        self.drills = drills
        self.within = within
        self.near = near
        self.inside = inside
        self.outside = outside
        self.reach = reach
    }

    /// Whether the rows carry a computed distance (near's, outside's).
    public var measures: Bool { near != nil || outside != nil || reach != nil }

    /// The fields the question uses, which a listing shows beside its columns: sort keys (the
    /// last sort's, as in memory), then the filters' and drill-downs' fields, earliest first.
    public var fieldsInUse: [String] {
        var seen = Set<String>()
        let computed = measures ? [NearQuery.column] : []
        return (sortFields + narrowingFields + computed).filter { seen.insert($0).inserted }
    }

    /// The last sort's fields (through a limit, the sort under it).
    public var sortFields: [String] {
        if sort.isEmpty, case let .first(_, inner)? = within { return inner.sortFields }
        return sort.prefix(lastSortCount ?? sort.count).map(\.field)
    }

    /// `sort KEYS` after what this question sorted by: ties keep the order before (as a
    /// stable sort in memory keeps them).
    public mutating func sort(by keys: [SortKey]) {
        let fields = Set(keys.map(\.field))
        sort = keys + sort.filter { !fields.contains($0.field) }
        lastSortCount = keys.count
    }

    private var narrowingFields: [String] {
        var fields: [String] = []
        if case let .first(_, inner)? = within { fields = inner.narrowingFields }
        return fields + filters.flatMap(\.fields) + drills.flatMap(\.fields)
    }

    /// `limit N`: the first N rows of this question, a question of its own.
    /// A near question keeps its distance beside the rows it limits (the same distance, of the same rows).
    public func limited(to count: Int) -> TableQuery { TableQuery(within: .first(count, of: self), near: near, outside: outside, reach: reach) }

    /// `limit` alone: this question without its limits, what came after each kept (a sort
    /// after a limit orders before the sort under it, as a later sort does).
    public func withoutLimits() -> TableQuery {
        guard case let .first(_, inner)? = within else { return self }
        var query = inner.withoutLimits()
        query.filters += filters
        query.drills += drills
        if !sort.isEmpty {
            query.sort(by: sort)
            query.lastSortCount = lastSortCount ?? sort.count
        }
        return query
    }

    /// `filter clear`: the search, near, within, outside or reach and the sorts kept; the
    /// filters, drill-downs and limits gone (as in memory, `QueryStack`).
    public func cleared() -> TableQuery {
        var query = withoutLimits()
        query.filters = []
        query.drills = []
        return query
    }

    /// Whether a limit shapes this question.
    public var isLimited: Bool { within != nil }
}

/// The rows a question after `limit N` shapes.
public indirect enum TableLimit: Sendable, Equatable {
    /// The first `count` rows `query` answers, in its order.
    case first(Int, of: TableQuery)
}

/// One group of a `group` listing: its fields, and the value of each ("" for none) and whether
/// it is a number, as `group` answered them.
public struct GroupDrill: Sendable, Equatable {
    public var fields: [String]
    public var values: [String]
    public var numbers: [Bool]

    public init(fields: [String], values: [String], numbers: [Bool]) {
        self.fields = fields
        self.values = values
        self.numbers = numbers
    }
}

// SortKey, GroupSpec and Aggregate are AlmanacCore's (Query/QuerySpecs.swift), shared with the in-memory engine.

/// One group: the values of the grouping fields ("" for none) and whether each is a number,
/// how many rows have them, their share of all the rows in percent, and the aggregates in the
/// order asked (nil where there was nothing to aggregate).
public struct GroupRow: Sendable, Equatable {
    public var values: [String]
    public var numbers: [Bool]
    public var count: Int
    public var percent: Double
    public var aggregates: [String?]
    /// How many groups there are in all, when the query was limited.
    public var groups: Int? = nil
}

// FieldProfile is AlmanacCore's too.
