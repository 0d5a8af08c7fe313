/// The fields of a dataset in memory, for the binder: names as filters take them (containers,
/// `_`/`-` twins), and each field's type read from its values once — numbers written as text
/// (SWAPI's `"180"`) are numbers, ISO timestamps are dates, as sort and histogram read them.
public struct DatasetFields: ExpressionCatalog {
    public let dataset: Dataset
    public let catalog: FieldCatalog
    /// The catalogs of every dataset in the results: a field another has is no error here, only absent.
    let others: [FieldCatalog]
    /// The results' step columns (near's `distance`): numbers like a field, and before one.
    let stepColumns: [ComputedColumn]

    public init(_ dataset: Dataset, catalog: FieldCatalog, others: [FieldCatalog] = [], stepColumns: [ComputedColumn] = []) {
        self.dataset = dataset
        self.catalog = catalog
        self.others = others
        self.stepColumns = stepColumns
    }

    public func field(_ name: String) -> (name: String, type: ValueType, container: Bool)? {
        if let step = stepColumns.named(name) { return (step.name, .number, false) }
        guard let field = FieldLookup.field(name, in: catalog) else {
            if others.contains(where: { FieldLookup.field(name, in: $0) != nil }) { return (name, .null, false) }
            return nil
        }
        let spelling = FieldLookup.canonical(name)
        let container = !catalog.paths.contains { FieldLookup.canonical($0) == spelling }
        let element = Self.type(of: field, named: name, in: dataset, catalog: catalog)
        return (name, field.inList ? .list(element) : element, container)
    }

    public func unknownField(_ name: String) -> Error {
        QueryError.unknownField(name, among: others.isEmpty ? [catalog] : others, of: [dataset])
    }

    public func checkComparison(field: String, op: FilterExpression.Operator, value: String) throws {
        if FieldLookup.field(field, in: catalog) == nil, let path = try LinkPath.resolve(field, from: dataset) {
            return try path.checkComparison(op, value)
        }
        try Filter.validate(.comparison(field: field, op: op, value: value), against: [catalog] + others)
    }

    public func linkPath(_ name: String) throws -> LinkPath? { try LinkPath.resolve(name, from: dataset) }

    /// `others` holds every dataset's catalog, this one's among them: more than one when the results span datasets.
    public func datasetName(ifNamed name: String) -> String? { DatasetField.names(name, in: others) ? dataset.name : nil }

    /// A field's values' type: numbers; booleans; text, unless (nearly) all of it reads as
    /// numbers (then numbers: other words are at most a quarter, as sort decides) or all as dates.
    static func type(of field: FieldCatalog.Field, named name: String, in dataset: Dataset, catalog: FieldCatalog) -> ValueType {
        let kinds = field.kinds.subtracting([.null])
        if kinds.isEmpty { return .text }
        if kinds == [.number] { return .number }
        if kinds.isSubset(of: [.true, .false]) { return .boolean }
        guard kinds.contains(.string) else { return .text }
        return dataset.cached(CacheKey<TextShape>("expression-type:" + name)) {
            TextShape.read(name, in: dataset, catalog: catalog)
        }.type
    }
}

/// How a field's text reads: how many values are numbers (or text that reads as one), dates, other words.
struct TextShape: Sendable {
    var numbers = 0
    var dates = 0
    var others = 0

    /// As `fields`, `describe` and `sort` read the field (`TextReading.dominant`): (nearly) all
    /// dates is a date field, a stray word being no value.
    var type: ValueType {
        if TextReading.dominant(numbers: numbers, dates: dates, texts: others) == .date { return .date }
        if numbers > 0, others * 4 <= numbers, dates == 0 { return .number }
        return .text
    }

    static func read(_ name: String, in dataset: Dataset, catalog: FieldCatalog) -> TextShape {
        var shape = TextShape()
        let document = dataset.document
        // Equal short strings share a node word: each distinct one is read once.
        var known: [UInt64: UInt8] = [:]
        func take(stringWord word: UInt64) {
            let reading: UInt8
            if let seen = known[word] {
                reading = seen
            } else {
                let range = JSONDocument.textRange(ofWord: word)
                let text = document.arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
                if ValueText.isAbsent(text) {
                    reading = 0
                } else if NumericText.value(of: text) != nil {
                    reading = 1
                } else if CalendarDate.seconds(text) != nil {
                    reading = 2
                } else {
                    reading = 3
                }
                if range.count <= JSONDocumentBuilder.internLimit { known[word] = reading }
            }
            switch reading {
            case 1: shape.numbers += 1
            case 2: shape.dates += 1
            case 3: shape.others += 1
            default: break
            }
        }
        if let column = catalog.column(name) {
            for row in 0..<dataset.count {
                switch column.kinds[row] {
                case JSONDocument.Kind.number.rawValue: shape.numbers += 1
                case JSONDocument.Kind.string.rawValue: take(stringWord: column.words[row])
                case JSONDocument.Kind.true.rawValue, JSONDocument.Kind.false.rawValue: shape.others += 1
                default: break
                }
            }
            return shape
        }
        let path = dataset.compile(FieldPath(name))
        for row in 0..<dataset.count {
            dataset.forEachValue(of: path, row: row) { value in
                switch value {
                case let .node(node):
                    switch document.kind(at: node) {
                    case .number: shape.numbers += 1
                    case .string: take(stringWord: document.node(node))
                    case .true, .false: shape.others += 1
                    default: break
                    }
                case .number: shape.numbers += 1
                case let .text(text):
                    if ValueText.isAbsent(text) { break }
                    if NumericText.value(of: text) != nil { shape.numbers += 1 } else if CalendarDate.seconds(text) != nil { shape.dates += 1 } else { shape.others += 1 }
                }
            }
        }
        return shape
    }
}
