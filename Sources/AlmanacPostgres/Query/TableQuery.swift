import AlmanacCore

/// The results of a table as the shell's commands shape them: a search, filters, a sort. Every
/// command runs it in the database; nothing of the table is held in memory.
///
/// These small values stand in for the shell's own result steps until those are shared.
public struct TableQuery: Sendable, Equatable {
    /// `search TEXT`: names containing every word, best matches first.
    public var search: String?
    /// `filter EXPR`, each narrowing the last.
    public var filters: [FilterExpression]
    /// `sort FIELD [asc|desc], …`; ties keep the search's ranking, then the table's order.
    public var sort: [SortKey]

    public init(search: String? = nil, filters: [FilterExpression] = [], sort: [SortKey] = []) {
        self.search = search
        self.filters = filters
        self.sort = sort
    }
}

public struct SortKey: Sendable, Equatable {
    public var field: String
    public var descending: Bool

    public init(_ field: String, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }
}

/// `group FIELD[, FIELD…] [AGG FIELD, …]`.
public struct GroupSpec: Sendable, Equatable {
    public var fields: [String]
    public var aggregates: [Aggregate]

    public init(fields: [String], aggregates: [Aggregate] = []) {
        self.fields = fields
        self.aggregates = aggregates
    }
}

public struct Aggregate: Sendable, Equatable, CustomStringConvertible {
    public enum Function: String, Sendable, CaseIterable {
        case count, sum, avg, min, max, distinct
    }

    public var function: Function
    public var field: String

    public init(_ function: Function, _ field: String) {
        self.function = function
        self.field = field
    }

    /// `sum population`: the aggregate's column name.
    public var description: String { "\(function.rawValue) \(field)" }
}

/// One group: the values of the grouping fields ("" for none) and whether each is a number,
/// how many rows have them, their share of all the rows in percent, and the aggregates in the
/// order asked (nil where there was nothing to aggregate).
public struct GroupRow: Sendable, Equatable {
    public var values: [String]
    public var numbers: [Bool]
    public var count: Int
    public var percent: Double
    public var aggregates: [String?]
}

/// `describe FIELD`: what a field's values are like.
public struct FieldProfile: Sendable, Equatable {
    public var field: String
    /// The column's type as the catalog names it (`integer`, `text`, `jsonb`).
    public var type: String
    /// Rows with a value, and without one.
    public var present: Int
    public var absent: Int
    public var distinct: Int
    /// Numbers only.
    public var minimum: Double?
    public var maximum: Double?
    public var mean: Double?
    /// The 25th, 50th and 75th percentiles (interpolated, as percentile_cont).
    public var quartiles: [Double]?
    /// Text only: the most common values with their counts, most common first.
    public var common: [(value: String, count: Int)]

    public static func == (left: FieldProfile, right: FieldProfile) -> Bool {
        left.field == right.field && left.type == right.type && left.present == right.present && left.absent == right.absent
            && left.distinct == right.distinct && left.minimum == right.minimum && left.maximum == right.maximum
            && left.mean == right.mean && left.quartiles == right.quartiles
            && left.common.map(\.value) == right.common.map(\.value) && left.common.map(\.count) == right.common.map(\.count)
    }
}
