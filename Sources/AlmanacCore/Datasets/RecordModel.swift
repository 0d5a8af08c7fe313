/// What a kind of record is: how records are found in a parsed source, which field names them,
/// what must be checked, and which fields are derived. One conforming type per model
/// (countries, species, stations, …); everything else — search, filter, sort, group, export,
/// completion — reaches fields by their JSON keys through `Dataset` and never asks the model.
public protocol RecordModel: Sendable, SendableMetatype {
    /// `country`, `species`: used in messages and summaries.
    static var singular: String { get }
    static var plural: String { get }

    /// The field that names a record: listings, `show NAME`, completion.
    static var nameField: String { get }
    /// Where search looks after the name (dotted paths; an object's path means all its values).
    static var otherNameFields: [String] { get }
    /// The columns of a listing, after the row number.
    static var listFields: [String] { get }
    /// What the loader checks in each record.
    static var fieldSpecs: [FieldSpec] { get }
    /// Fields computed from the source, reachable like source fields.
    static var derivedFields: [DerivedField] { get }
    /// The datasets derived fields read through links (SWAPI's `planets` for `homeworld`).
    static var linkedDatasets: [String] { get }

    /// The records of a parsed source. The default reads an array of objects, the `results`
    /// of API pages, or NDJSON lines, and checks `fieldSpecs`.
    static func extract(from document: JSONDocument, source: String, cancellation: Cancellation) throws(LoadFailure) -> Extraction

    /// The keys `show` finds a record by (`NOR`, `NO`; `9362`), upper-cased.
    static func identities(of record: JSONValue) -> [String]

    /// A one-line summary of a loaded dataset: `4,037 stations in 3,120 cities`.
    static func summary(of dataset: Dataset) -> String

    /// The name field and listing columns for these records; typed models know them, the
    /// generic one looks at the records.
    static func layout(of document: JSONDocument, records: [Int]) -> Layout

    /// What `show` displays for the record at `row`. The default lists every field.
    static func detail(of dataset: Dataset, row: Int, links: Links) -> RecordDetail
}

/// Which field names a record, which other fields search and `show` look at, and which
/// fields a listing shows.
public struct Layout: Sendable, Equatable {
    public var nameField: String
    public var listFields: [String]
    /// Where search and `show` look after the name (dotted paths).
    public var otherNameFields: [String]
    /// A top-level field whose value `show ID` finds a record by (a file's `id`), besides the
    /// model's own identities.
    public var identityField: String?

    public init(nameField: String, listFields: [String], otherNameFields: [String] = [], identityField: String? = nil) {
        self.nameField = nameField
        self.listFields = listFields
        self.otherNameFields = otherNameFields
        self.identityField = identityField
    }
}

extension RecordModel {
    public static var otherNameFields: [String] { [] }
    public static var derivedFields: [DerivedField] { [] }
    public static var linkedDatasets: [String] { [] }
    public static var fieldSpecs: [FieldSpec] { [] }

    public static func extract(from document: JSONDocument, source: String, cancellation: Cancellation) throws(LoadFailure) -> Extraction {
        try RecordExtraction.records(of: Self.self, in: document, source: source, cancellation: cancellation)
    }

    public static func identities(of record: JSONValue) -> [String] { [] }

    public static func layout(of document: JSONDocument, records: [Int]) -> Layout {
        Layout(nameField: nameField, listFields: listFields, otherNameFields: otherNameFields)
    }

    public static func detail(of dataset: Dataset, row: Int, links: Links) -> RecordDetail {
        RecordDetail.fields(of: dataset, row: row)
    }

    public static func summary(of dataset: Dataset) -> String {
        "\(dataset.count.grouped) \(dataset.count == 1 ? singular : plural)"
    }
}

/// The records a model found in a source, and what was wrong with some of them.
public struct Extraction: Sendable {
    /// Node index of each record's object.
    public var records: [Int]
    public var warnings: [LoadWarning]
    /// Model-specific data computed while extracting (the stations' directions and cities).
    public var extras: ModelExtras
    /// Where in an object document the records were (`data.items`); nil for an array, pages or lines.
    public var recordsAt: String?

    public init(records: [Int], warnings: [LoadWarning] = [], extras: ModelExtras = ModelExtras()) {
        self.records = records
        self.warnings = warnings
        self.extras = extras
    }
}

/// A field a model computes rather than reads: the stations' `directions`, the species' colour lists.
/// A derived field may share its name with a source field and then replaces it for queries.
public struct DerivedField: Sendable {
    public var name: String
    public var values: @Sendable (Dataset, _ row: Int) -> [FieldValue]

    public init(name: String, values: @escaping @Sendable (Dataset, _ row: Int) -> [FieldValue]) {
        self.name = name
        self.values = values
    }
}

/// A field's value for queries: a node of the dataset's document, or a computed value.
public enum FieldValue: Sendable, Equatable {
    case node(Int)
    case text(String)
    case number(Double)
}

/// What a model expects of one top-level field, for the lenient per-record checks.
public struct FieldSpec: Sendable {
    public enum Expected: Sendable, Equatable {
        case string, number, bool, object
        /// A string holding a number (`"180"`); other text is kept but warned about.
        case numericText
        case list(of: JSONDocument.Kind)
    }

    public var key: String
    public var expected: Expected
    /// Absent without a warning (Country's `area`, `gini`).
    public var optional: Bool
    /// `null` allowed without a warning (a species' `homeworld`).
    public var nullable: Bool
    /// The record cannot be used without it: skipped, with a warning.
    public var identity: Bool

    public init(_ key: String, _ expected: Expected, optional: Bool = false, nullable: Bool = false, identity: Bool = false) {
        self.key = key
        self.expected = expected
        self.optional = optional
        self.nullable = nullable
        self.identity = identity
    }
}

extension Int {
    /// `4037` as `4,037`.
    public var grouped: String {
        let digits = String(magnitude)
        var result = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (self < 0 ? "-" : "") + result
    }
}

/// What a model learns while extracting beyond the records (the stations' directions and
/// cities), kept by type: `dataset.extras[StationModel.Extras.self]` is that model's value or
/// nil, never an `Any` to cast.
public struct ModelExtras: Sendable {
    /// One or two values at most: a list is searched faster than a dictionary is hashed, and
    /// a derived field reads its model's extras once per record.
    private var values: [(type: ObjectIdentifier, value: any Sendable)] = []

    public init() {}

    public init<Value: Sendable>(_ value: Value) { self[Value.self] = value }

    public subscript<Value: Sendable>(_ type: Value.Type) -> Value? {
        get {
            let key = ObjectIdentifier(type)
            for entry in values where entry.type == key { return entry.value as? Value }
            return nil
        }
        set {
            let key = ObjectIdentifier(type)
            values.removeAll { $0.type == key }
            if let newValue { values.append((key, newValue)) }
        }
    }
}
