/// The current results of the dataset in use, wherever its records live: in memory
/// (`MemoryResults`) or in a database (an attached table's engine). Every command asks this,
/// never which kind it has; what needs the records themselves asks `inMemory`.
///
/// A source is a value: applying a step gives a new source, so `back` keeps the one before.
/// Methods that remember what they learnt (a count, where the last page ended) are `mutating`.
public protocol ResultsSource: Sendable {
    /// The datasets the results span (one for an attached table).
    var datasetNames: [String] { get }
    /// The results as records in memory; nil when they live elsewhere (then map and trip,
    /// which read every record, say so).
    var inMemory: ResultSet? { get }
    /// How many rows a listing into a pipe shows at most when no page size is set; nil: all of
    /// them (the records are here). A table's may be millions.
    var unpagedLimit: Int? { get }
    /// Whether a step was applied (then the session keeps this source until `use` or `back`).
    var hasSteps: Bool { get }
    /// The fields the steps use (sort keys, then filter and drill-down fields): listings show them.
    var fieldsInUse: [String] { get }
    /// The keys of the sort in force: a listing cut to fit the terminal keeps them whole longest.
    var sortFields: [String] { get }
    /// The columns a listing shows when none were chosen; nil when the results span datasets.
    var defaultColumns: [String]? { get }
    /// Every record's top-level keys, when known without reading the records (a table's
    /// columns): an export of no rows still names them.
    var recordKeys: [String]? { get }
    /// The fields that tell one record from every other (a table's primary key), if any.
    var primaryKey: [String] { get }
    /// Where the results live elsewhere: the results of the step that measured them (near,
    /// outside, reach) without what narrowed them since, whose rows carry the distance a filter
    /// may compare (`why NAME` reads a row there). Nil without such a step, and in memory, where
    /// the results lend every record what the step computed.
    var measured: Self? { get }

    /// The results after `step`.
    func applying(_ step: QueryStep, cancellation: Cancellation) throws -> Self
    /// How many records the results hold; `fresh` asks again rather than remember.
    mutating func count(fresh: Bool, cancellation: Cancellation) throws -> Int
    /// Whether the results hold no record: a database stops at the first row it finds
    /// rather than counting them all.
    mutating func isEmpty(cancellation: Cancellation) throws -> Bool
    /// The records `start..<start+size` (fewer at the end).
    mutating func page(start: Int, size: Int, cancellation: Cancellation) throws -> ResultsPage
    /// The record at `offset` of the results.
    func record(at offset: Int, cancellation: Cancellation) throws -> RecordRef
    /// What `show TEXT` finds: an identity, a name, another name, a unique beginning.
    func find(_ text: String, limit: Int, cancellation: Cancellation) throws -> RecordMatch
    /// Counts per value of the spec's fields, with its aggregates.
    mutating func group(_ spec: GroupSpec, cancellation: Cancellation) throws -> GroupAnswer
    /// A profile of each field (every field when `fields` is empty).
    func describe(_ fields: [String], cancellation: Cancellation) throws -> DescribeAnswer
    /// A field's or an expression's numbers or dates counted into bins (`histogram`): equal
    /// ones, or with `logarithmic` ones growing by a factor; `bins` of them when asked.
    func histogram(_ field: String, bins: Int?, logarithmic: Bool, cancellation: Cancellation) throws -> HistogramAnswer
    /// Each field's type, how many records have it, an example.
    func fields(cancellation: Cancellation) throws -> FieldListing
    /// The field as written when the results have it; else the unknown-field error.
    func checkField(_ name: String, cancellation: Cancellation) throws -> String
    /// Checks a computed column: its fields and types (and, for a table, that SQL computes it).
    /// Returns its type (the first dataset's, when the results span several).
    @discardableResult
    func checkExpression(_ expression: Expression, cancellation: Cancellation) throws -> ValueType
    /// The columns the next pages show (computed ones are computed where the records are).
    mutating func showing(_ columns: [String])
    /// Every record of the results, in order, a batch at a time (memory: one batch).
    @discardableResult
    func forEachBatch(cancellation: Cancellation, _ body: (ResultSet) throws -> Void) throws -> Int

    /// For TAB, never waiting long: field names, values of a field, record names (nil: the
    /// source has no quick answer, and the caller looks in memory's indexes).
    func completionFields() -> [String]
    func completionValues(of field: String, prefix: String, limit: Int) -> [String]?
    func completionNames(prefix: String, limit: Int) -> [String]?
    /// Paths across links continuing `fragment` (`homeworld.` → `homeworld.climate`, …).
    func completionPaths(continuing fragment: String) -> [(path: String, isLink: Bool)]

    /// How many records of the results have each value of `field` (a list counts each of its
    /// values once per record) where `condition` also holds: values whose folding starts with
    /// `prefix` folded, most records first (equal counts by value), at most `limit`. Nil when
    /// the source cannot answer without waiting: `quick` asks for TAB's answer (no load or
    /// inference waited for, a database given a moment); `cancellation` stops it.
    func valueCounts(of field: String, where condition: FilterExpression?, prefix: String, limit: Int, quick: Bool,
                     cancellation: Cancellation) throws -> [ValueCount]?
    /// The conditions the results are narrowed by since the last search or clear, first to
    /// last: each filter, and each drill-down as its `FIELD = VALUE`s (what `why` checks).
    var conditions: [FilterExpression] { get }
}

extension ResultsSource {
    public mutating func isEmpty(cancellation: Cancellation) throws -> Bool { try count(fresh: false, cancellation: cancellation) == 0 }
    public mutating func showing(_ columns: [String]) {}
    public var unpagedLimit: Int? { nil }
    public var recordKeys: [String]? { nil }
    public var primaryKey: [String] { [] }
    public var measured: Self? { nil }
    public func completionValues(of field: String, prefix: String, limit: Int) -> [String]? { nil }
    public func completionNames(prefix: String, limit: Int) -> [String]? { nil }
    public func completionPaths(continuing fragment: String) -> [(path: String, isLink: Bool)] { [] }
}

/// One value of a field and how many records have it (`ResultsSource.valueCounts`).
public struct ValueCount: Sendable, Equatable {
    public var value: String
    public var count: Int

    public init(_ value: String, count: Int) {
        self.value = value
        self.count = count
    }

    /// `Europe (53)`: as completion lists it and explanations name it.
    public var shown: String { "\(value) (\(count.grouped))" }
}

/// One record of a dataset (in memory, or a row fetched from a database as a small dataset).
public struct RecordRef: Sendable {
    public var dataset: Dataset
    public var row: Int

    public init(dataset: Dataset, row: Int) {
        self.dataset = dataset
        self.row = row
    }
}

/// Some records of the results, as a listing shows them.
public struct ResultsPage: Sendable {
    /// The records (a fetched page is a result set of its own).
    public var results: ResultSet
    /// Which of them are the page.
    public var range: Range<Int>
    /// The columns a listing of these records shows by default.
    public var defaultColumns: [String]

    public init(results: ResultSet, range: Range<Int>, defaultColumns: [String]) {
        self.results = results
        self.range = range
        self.defaultColumns = defaultColumns
    }
}

/// What `show TEXT` found.
public enum RecordMatch: Sendable {
    case one(RecordRef)
    /// Nothing; names like the text, for "did you mean".
    case none(similar: [String])
    /// Several (the first of them when `total` is more): each with the id `show` finds it by,
    /// when its model has none of its own.
    case several([RecordRef], total: Int, identities: [String?])
}

/// A group listing: `count` groups of `total` records, each made when read.
public struct GroupAnswer: Sendable {
    public let spec: GroupSpec
    public let count: Int
    public let total: Int
    /// How many groups there are in all: more than `count` when `spec.limit` cut the list.
    public let groups: Int
    private let rows: @Sendable (Int) -> Group.Row

    public init(spec: GroupSpec, count: Int, total: Int, groups: Int? = nil, rows: @escaping @Sendable (Int) -> Group.Row) {
        self.spec = spec
        self.count = count
        self.total = total
        self.groups = max(count, groups ?? count)
        self.rows = rows
    }

    public func row(_ index: Int) -> Group.Row { rows(index) }

    /// The step that narrows the results to group `number` (1-based).
    public func drill(_ number: Int) -> QueryStep { .drill(spec, row(number - 1)) }
}

/// `describe`'s profiles, each with the dataset it is of; `sections` names the datasets when
/// the results span several.
public struct DescribeAnswer: Sendable {
    public var profiles: [(dataset: String, profile: FieldProfile)]
    public var sections: [String]

    public init(profiles: [(dataset: String, profile: FieldProfile)], sections: [String] = []) {
        self.profiles = profiles
        self.sections = sections
    }
}

/// `fields`: one row per field, sectioned by dataset when the results span several, and the
/// notes below (which field names the records, what else search looks at).
public struct FieldListing: Sendable {
    public struct Row: Sendable {
        public var path: String
        public var type: String
        public var records: Int
        public var example: String?
        public var isDerived: Bool
        /// Which of `sections` it belongs to.
        public var section: Int
        /// The type a database stores the values as (`text[]`); nil in memory.
        public var stored: String?

        public init(path: String, type: String, records: Int, example: String?, isDerived: Bool = false, section: Int = 0,
                    stored: String? = nil) {
            self.stored = stored
            self.path = path
            self.type = type
            self.records = records
            self.example = example
            self.isDerived = isDerived
            self.section = section
        }
    }

    public var rows: [Row]
    public var sections: [String]
    public var notes: [String]

    public init(rows: [Row], sections: [String], notes: [String]) {
        self.rows = rows
        self.sections = sections
        self.notes = notes
    }

    /// `names the records: quote; search and show also look at author`; nil when the name
    /// field is none of `fields` (an empty file's records have no fields).
    public static func nameNote(_ layout: Layout, fields: [String]) -> String? {
        guard fields.contains(layout.nameField) else { return nil }
        let others = layout.otherNameFields.isEmpty ? "" : "; search and show also look at \(layout.otherNameFields.joined(separator: ", "))"
        return "names the records: \(layout.nameField)\(others)"
    }
}
