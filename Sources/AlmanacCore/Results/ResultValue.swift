import Foundation

/// One cell of a result: typed, so every format can write it its own way (a number as a JSON
/// number, with separators in a table, as digits in CSV).
public enum ResultValue: Sendable {
    /// Nothing there: JSON null, an empty cell.
    case absent
    case text(String)
    case integer(Int)
    case decimal(Double)
    /// A number as the source wrote it (a valid JSON number literal).
    case literal(String)
    case boolean(Bool)
    /// A calendar day (shown as 2026-12-01).
    case date(Date)
    case list([ResultValue])
    /// Named values (`{"value": "Россия", "count": 3136}`): people read the values side by side.
    case record([(name: String, value: ResultValue)])
    /// A record of a dataset, shown by its name.
    case link(RecordLink)
    /// A value of a source record, written as the source has it (numbers keep their literal,
    /// objects stay objects).
    case source(JSONValue)

    /// A value of a dataset's field as a result value.
    public init(_ value: FieldValue, in dataset: Dataset) {
        switch value {
        case let .node(node): self = .source(dataset.document.value(at: node))
        case let .text(text): self = .text(text)
        case let .number(number): self = number == number.rounded() && abs(number) < 1e15 ? .integer(Int(number)) : .decimal(number)
        }
    }

    /// The values a field reaches in one record: none is absent, one is itself, more a list.
    public init(_ values: [FieldValue], in dataset: Dataset) {
        switch values.count {
        case 0: self = .absent
        case 1: self = ResultValue(values[0], in: dataset)
        default: self = .list(values.map { ResultValue($0, in: dataset) })
        }
    }

    /// The number it holds, if it is one (a source number, or source text that reads as one).
    public var number: Double? {
        switch self {
        case let .integer(value): Double(value)
        case let .decimal(value): value
        case let .literal(literal): Double(literal)
        case let .source(value):
            switch value.kind {
            case .number: value.number
            default: nil
            }
        default: nil
        }
    }

    /// Whether it holds nothing: absent, null, or text that says none (`""`, `n/a`, see `ValueText`).
    public var isAbsent: Bool {
        switch self {
        case .absent: true
        case let .text(text): ValueText.isAbsent(text)
        case let .source(value): value.kind == .null || (value.kind == .string && ValueText.isAbsent(stringAt: value.index, in: value.document))
        case let .list(values): values.isEmpty
        default: false
        }
    }
}

/// A record a result points at.
public struct RecordLink: Sendable {
    public var dataset: String
    public var row: Int
    public var name: String

    public init(dataset: String, row: Int, name: String) {
        self.dataset = dataset
        self.row = row
        self.name = name
    }
}

/// A named, typed column of a result.
public struct ResultColumn: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case text, integer, decimal, boolean, date, list, link
        /// A field of the source records: the values say what they are.
        case field
    }

    public var name: String
    public var kind: Kind
    /// Numbers shown with thousands separators in people's formats (not identifiers).
    public var grouped: Bool
    /// What people's formats show for an absent value (`<none>` for a group of records without one).
    public var absentText: String
    /// The column holds the records' names: a name reads as written, even `unknown` (a planet
    /// is called that), so no row of a listing is nameless.
    public var isName = false
    /// How a table cut to a terminal's width treats the column.
    public var fitting = Fitting.free

    /// What a table too wide for the terminal may do to a column: long free text gives way first.
    public enum Fitting: Sendable, Equatable {
        /// Cut as wide text is (the widest first).
        case free
        /// Kept whole until nothing else can give way (a listing's sort keys).
        case cutLast
        /// Never cut: a table that cannot keep it whole is shown one record at a time instead
        /// (describe's numbers).
        case whole
    }

    public init(_ name: String, _ kind: Kind = .text, grouped: Bool = true, absentText: String = "") {
        self.name = name
        self.kind = kind
        self.grouped = grouped
        self.absentText = absentText
    }

    public var isNumeric: Bool { kind == .integer || kind == .decimal }
}
