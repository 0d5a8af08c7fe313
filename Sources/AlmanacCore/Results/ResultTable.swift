/// Rows of typed cells under named columns: what every command that answers with rows returns,
/// and what every output format writes.
///
/// Rows are made when read, one at a time: a listing of 400,000 records never holds all its
/// cells, and a page of a table makes only the page's.
public struct ResultTable: Sendable {
    public var columns: [ResultColumn]
    public let count: Int
    private let cells: @Sendable (Int) -> [ResultValue]
    /// The source records behind the rows, when the rows are records: machine formats write
    /// them whole, in the source schema, unless the columns were chosen.
    public var records: RecordRows?
    /// Whether `columns` were chosen by the user (then every format writes just them).
    public var columnsChosen = false

    /// Marks the columns named `fields` (a listing's sort keys) to be cut last.
    public mutating func cutLast(_ fields: [String]) {
        for index in columns.indices where fields.contains(columns[index].name) { columns[index].fitting = .cutLast }
    }
    /// People's formats number the rows from here (`#`); nil: no numbers.
    public var firstNumber: Int?
    /// Whether people's formats show the column names (a list of settings reads better without).
    public var showsHeader = true
    /// The datasets rows come from when they span several (`use all`): JSON keys the rows by it,
    /// the other formats show it as a first column.
    public var sections: Sections?

    public init(columns: [ResultColumn], count: Int, cells: @escaping @Sendable (Int) -> [ResultValue]) {
        self.columns = columns
        self.count = count
        self.cells = cells
    }

    /// A table of rows already made.
    public init(columns: [ResultColumn], rows: [[ResultValue]]) {
        self.init(columns: columns, count: rows.count) { rows[$0] }
    }

    /// The cells of row `index`, one per column.
    public func row(_ index: Int) -> [ResultValue] { cells(index) }

    public var isEmpty: Bool { count == 0 }

    /// The section (dataset) of row `row`, when the table has sections.
    public func section(of row: Int) -> String? { sections.map { $0.names[$0.index(row)] } }

    public var isSectioned: Bool { sections != nil }
}

/// Named groups of a table's rows, in the order they are listed (empty ones included).
public struct Sections: Sendable {
    public let names: [String]
    /// The position in `names` of a row's section.
    public let index: @Sendable (Int) -> Int

    public init(names: [String], index: @escaping @Sendable (Int) -> Int) {
        self.names = names
        self.index = index
    }
}

/// The records behind a table's rows: a range of a result set.
public struct RecordRows: Sendable {
    public let results: ResultSet
    public let range: Range<Int>

    public init(results: ResultSet, range: Range<Int>) {
        self.results = results
        self.range = range
    }

    public func item(_ row: Int) -> ResultSet.Item { results.items[range.lowerBound + row] }
    public func dataset(_ row: Int) -> Dataset { results.dataset(of: item(row)) }
    public func record(_ row: Int) -> JSONValue {
        let item = item(row)
        return results.dataset(of: item).record(item.row)
    }
}

/// What a command answers: its data as a table, how JSON holds it (an array of rows, or one
/// object), and what people see instead of the table when it reads better as text.
public struct CommandResult: Sendable {
    public enum Shape: Sendable {
        /// Any number of rows: a JSON array (an object of arrays when sectioned).
        case rows
        /// One thing (a record, a count, the settings): its one row as a JSON object.
        case object
    }

    /// What people's formats (table, expanded) show instead of the table.
    public enum Prose: Sendable {
        /// A record in detail: sections of labelled values.
        case detail(RecordDetail)
        /// Lines of text as they are.
        case lines([String])
        /// Another table (a histogram's bars rather than its bounds).
        case table(ResultTable)
    }

    public var table: ResultTable
    public var shape: Shape
    public var prose: Prose?
    /// Lines for people after the table (a page footer, a legend); machine formats leave them out.
    public var notes: [String]
    /// What people see when the table is empty (`no records`); nil shows the empty table.
    public var emptyNote: String?
    /// A document of its own that programs get instead of the rows (GeoJSON).
    public var document: ResultDocument?
    /// Lines said on standard error after the answer, whatever the format (why a filter found
    /// nothing): scripts reading the answer get it unchanged.
    public var messages: [String] = []
    /// A line said on standard error when the answer is written, and only then: a listing cut
    /// short for programs says how much more there is (a script's held listing that the next
    /// command drops says nothing).
    public var writtenNote: String?
    /// A listing not made yet: page N of the current results, listed only if the answer is
    /// written (a script's held listing that the next command drops is never asked for).
    public var unmadePage: Int?
    /// An unmade listing that carries the GeoJSON of its rows for programs once it is made (a
    /// geographic step on a table, whose rows the database sends only then).
    public var geoJSONWhenMade = false

    public init(_ table: ResultTable, shape: Shape = .rows, prose: Prose? = nil, notes: [String] = [], emptyNote: String? = nil) {
        self.table = table
        self.shape = shape
        self.prose = prose
        self.notes = notes
        self.emptyNote = emptyNote
    }

    /// The same answer, with `document` for programs.
    public func with(document: ResultDocument) -> CommandResult {
        var result = self
        result.document = document
        return result
    }

    /// Page `page` of the current results, to be listed when written (`unmadePage`).
    public static func unmade(page: Int) -> CommandResult {
        var result = CommandResult(ResultTable(columns: [], rows: []))
        result.unmadePage = page
        return result
    }

    /// One named value (`count`, one setting): the value alone for people, an object for programs.
    public static func value(_ name: String, _ value: ResultValue, kind: ResultColumn.Kind = .text, text: String) -> CommandResult {
        CommandResult(ResultTable(columns: [ResultColumn(name, kind)], rows: [[value]]), shape: .object, prose: .lines([text]))
    }
}

/// An answer that is a document rather than rows (a GeoJSON FeatureCollection): `json` writes
/// it whole, `ndjson` one member a line; each made only when that format asks.
public struct ResultDocument: Sendable {
    public let whole: @Sendable () -> String
    public let lines: @Sendable () -> [String]

    public init(whole: @escaping @Sendable () -> String, lines: @escaping @Sendable () -> [String]) {
        self.whole = whole
        self.lines = lines
    }
}
