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
    /// `show #N` after `group`: the rows of group N, each narrowing the last.
    public var drills: [GroupDrill]

    public init(search: String? = nil, filters: [FilterExpression] = [], sort: [SortKey] = [], drills: [GroupDrill] = []) {
        self.search = search
        self.filters = filters
        self.sort = sort
        self.drills = drills
    }

    /// The fields the question uses, which a listing shows beside its columns: sort keys, then
    /// the filters' and drill-downs' fields.
    public var fieldsInUse: [String] {
        var seen = Set<String>()
        return (sort.map(\.field) + filters.flatMap(\.fields) + drills.flatMap(\.fields)).filter { seen.insert($0).inserted }
    }
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
