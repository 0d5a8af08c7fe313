/// What the shaping commands ask for, as plain values: the in-memory engine evaluates them
/// here, and a database backend can translate the same values into SQL (ORDER BY … NULLS LAST,
/// GROUP BY with aggregates).

/// One key of `sort FIELD [asc|desc], …`.
public struct SortKey: Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var descending: Bool

    public init(_ field: String, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }

    /// `population desc`.
    public var description: String { descending ? "\(field) desc" : field }
}

/// `group FIELD[, FIELD…] [AGG FIELD, …]`.
public struct GroupSpec: Sendable, Equatable {
    public var fields: [String]
    public var aggregates: [Aggregate]
    /// At most this many groups, largest first (nil: every group): `group` lists 10,000 unless
    /// asked for all, so millions of distinct values cost neither memory nor a flooded pipe.
    public var limit: Int?

    public init(fields: [String], aggregates: [Aggregate] = []) {
        self.fields = fields
        self.aggregates = aggregates
    }
}

/// One aggregate of a group: `sum population`, `distinct cityTitle`.
public struct Aggregate: Sendable, Equatable, CustomStringConvertible {
    public enum Function: String, Sendable, CaseIterable {
        /// Records with a value of the field.
        case count
        case sum, avg, min, max
        /// Distinct values of the field.
        case distinct
    }

    public var function: Function
    /// A field, or an expression's canonical text (`population / area`).
    public var field: String
    /// The name given with `as` (`avg(population / area) as density`).
    public var name: String?

    public init(_ function: Function, _ field: String, name: String? = nil) {
        self.function = function
        self.field = field
        self.name = name
    }

    /// `sum population`, `avg(population / area)`, or the name given: the aggregate's column name.
    public var description: String {
        if let name { return name }
        return field.contains(" ") || field.contains("(") ? "\(function.rawValue)(\(field))" : "\(function.rawValue) \(field)"
    }
}

/// `describe FIELD`: what a field's values are like.
public struct FieldProfile: Sendable, Equatable {
    public var field: String
    /// `number`, `text`, `date`, `list of text`… (a database names its column's type).
    public var type: String
    /// Records with a value, and without one (missing, null, or a word for none).
    public var present: Int
    public var absent: Int
    public var distinct: Int
    /// Numbers and dates (dates as seconds since 1970).
    public var minimum: Double?
    public var maximum: Double?
    public var mean: Double?
    /// The 25th, 50th and 75th percentiles (interpolated, as percentile_cont).
    public var quartiles: [Double]?
    /// Text only: the most common values with their counts, most common first.
    public var common: [(value: String, count: Int)]
    /// Whether `minimum`, `maximum`, `mean` and `quartiles` are dates.
    public var isDate: Bool
    /// Numbers and dates: how many values fall in each of equal bins from the minimum to the
    /// maximum (the histogram's binning), drawn as a sparkline for people.
    public var distribution: [Int]?
    /// How the field writes its numbers: statistics of galactic years show as `896BBY`.
    public var notation: NumberNotation = .plain
    /// Values left out of the statistics: NaN, ±infinity, numbers beyond a Double.
    public var nonFinite = 0
    /// The minimum and maximum as written, when past 2⁵³ a Double cannot say which integer
    /// they are (`1234567890123456789`, not `1.2345678901234568e+18`).
    public var exactMinimum: String?
    public var exactMaximum: String?

    public init(field: String, type: String, present: Int, absent: Int, distinct: Int, minimum: Double? = nil,
                maximum: Double? = nil, mean: Double? = nil, quartiles: [Double]? = nil,
                common: [(value: String, count: Int)] = [], isDate: Bool = false) {
        self.field = field
        self.type = type
        self.present = present
        self.absent = absent
        self.distinct = distinct
        self.minimum = minimum
        self.maximum = maximum
        self.mean = mean
        self.quartiles = quartiles
        self.common = common
        self.isDate = isDate
    }

    public static func == (left: FieldProfile, right: FieldProfile) -> Bool {
        left.field == right.field && left.type == right.type && left.present == right.present && left.absent == right.absent
            && left.distinct == right.distinct && left.minimum == right.minimum && left.maximum == right.maximum
            && left.mean == right.mean && left.quartiles == right.quartiles && left.isDate == right.isDate
            && left.distribution == right.distribution && left.notation == right.notation && left.nonFinite == right.nonFinite
            && left.common.map(\.value) == right.common.map(\.value) && left.common.map(\.count) == right.common.map(\.count)
    }
}
