/// The fields a dataset's records have, inferred from the records themselves: one entry per
/// dotted path, with its types, how many records have it, an example, and its values when
/// there are few (for completion of `filter region = <TAB>`).
///
/// The same pass keeps a column for each field that holds one value per record (not a list):
/// the value's kind and node word per row, so filter, sort and group read one small array in
/// order instead of walking every record in the document.
public struct FieldCatalog: Sendable {
    public struct Field: Sendable, Equatable {
        public var path: String
        /// The kinds of value seen (a field can be a number in one record and null in another).
        /// The words for none (`n/a`, `unknown`) are no kind: numbers with some `n/a` are numbers.
        public var kinds: Set<JSONDocument.Kind>
        /// Whether values sit in lists (`borders`, `currencies.code`).
        public var inList: Bool
        /// Records that have at least one value present (not null, not a word for none: `n/a`).
        public var count: Int
        public var example: String?
        /// All distinct values when there are at most `FieldCatalog.fewValues`, else nil.
        public var values: [String]?
        /// Computed by the model rather than read from the source.
        public var isDerived: Bool
        /// What the values read as when (nearly) all are numbers written as text or ISO dates
        /// (`TextReading.dominant`, the rule describe and sort use): `number (as text)`, `date`.
        public var readsAs: TextReading? = nil

        /// `text`, `number`, `list of text`, `number or null`; `number (as text)` and `date`
        /// for text that reads as those, as describe says.
        public var typeDescription: String {
            if let readsAs, readsAs != .text {
                let name = readsAs == .date ? "date" : "number (as text)"
                return inList ? "list of \(name)" : name
            }
            let order: [JSONDocument.Kind] = [.string, .number, .true, .object, .array, .null]
            var names: [String] = []
            for kind in order where kinds.contains(kind) || (kind == .true && kinds.contains(.false)) {
                let name = switch kind {
                case .string: "text"
                case .number: "number"
                case .true, .false: "boolean"
                case .object: "object"
                case .array: "list"
                case .null: "null"
                }
                if !names.contains(name) { names.append(name) }
            }
            let joined = names.isEmpty ? "empty" : names.joined(separator: " or ")
            return inList ? "list of \(joined)" : joined
        }

        public var isNumeric: Bool { kinds.contains(.number) && !kinds.contains(.string) }
    }

    /// One value per record: its kind (`Column.missing` when the record has none) and its word
    /// (the node word for strings, true, false and null — equal short strings share one —
    /// and the Double's bits for numbers).
    public struct Column: Sendable {
        public static let missing: UInt8 = 0xFF
        public let kinds: [UInt8]
        public let words: [UInt64]
    }

    public static let fewValues = 24

    /// The longest example `fields` shows, in characters: an example is a glimpse of a value
    /// (a 2 MB string or a 1,000,000-digit number was printed whole, in every mode).
    public static let glimpseLength = 40

    /// `text` up to its first line break and at most `glimpseLength` characters, with `…` when cut.
    public static func glimpse(of text: String) -> String {
        var kept = Substring(text)
        if let lineBreak = kept.firstIndex(where: \.isNewline) { kept = kept[..<lineBreak] }
        if let end = kept.index(kept.startIndex, offsetBy: glimpseLength, limitedBy: kept.endIndex), end < kept.endIndex {
            kept = kept[..<end]
        }
        return kept.endIndex == text.endIndex ? text : String(kept) + "…"
    }

    public private(set) var fields: [Field]
    private let byPath: [String: Int]
    private let columns: [String: Column]

    public func field(_ path: String) -> Field? { byPath[path].map { fields[$0] } }
    public var paths: [String] { fields.map(\.path) }

    /// The column of a source field that has one value per record, if it has one.
    public func column(_ path: String) -> Column? { columns[path] }

    init(fields: [Field], columns: [String: Column]) {
        self.fields = fields
        var byPath: [String: Int] = [:]
        for (index, field) in fields.enumerated() { byPath[field.path] = index }
        self.byPath = byPath
        self.columns = columns
    }

    init?(inferringFrom dataset: Dataset, cancellation: Cancellation = .never) {
        var builder = Builder(document: dataset.document, rows: dataset.count)
        for (row, node) in dataset.records.enumerated() {
            if row & 0x3FF == 0, cancellation.isCancelled { return nil }
            builder.record = row
            builder.visit(node, path: -1, inList: false)
        }
        var (fields, columns) = builder.finish()
        // A delimited text's column that no row fills is a field all the same, of no values.
        // (Containers count as present: `a.b` nests under `a`. A set: files have 20,000 columns.)
        var known = Set<Substring>()
        for field in fields {
            var path = Substring(field.path)
            while known.insert(path).inserted, let dot = path.lastIndex(of: ".") { path = path[..<dot] }
        }
        for name in dataset.origin.columns where !known.contains(Substring(name)) {
            fields.append(Field(path: name, kinds: [], inList: false, count: 0, example: nil, values: [], isDerived: false))
        }
        // Derived fields replace source fields of the same name (and their columns), or come after them.
        for derived in dataset.model.derivedFields {
            var field = Field(path: derived.name, kinds: [], inList: false, count: 0, example: nil, values: [], isDerived: true)
            var distinct: [String] = []
            var (numbers, texts) = (0, 0)
            for row in 0..<dataset.count {
                let values = derived.values(dataset, row)
                if values.count > 1 { field.inList = true }
                if values.contains(where: dataset.isPresent) { field.count += 1 }
                for value in values where dataset.isPresent(value) {
                    switch value {
                    case .number:
                        field.kinds.insert(.number)
                        numbers += 1
                    case .text, .node:
                        field.kinds.insert(.string)
                        texts += 1
                    }
                    let text = dataset.text(of: value)
                    if field.example == nil { field.example = FieldCatalog.glimpse(of: text) }
                    if distinct.count <= Self.fewValues, !distinct.contains(text) { distinct.append(text) }
                }
            }
            field.values = distinct.count <= Self.fewValues ? distinct.sorted() : nil
            // A computed number is read from the source's text (SWAPI's "180").
            if TextReading.dominant(numbers: numbers, dates: 0, texts: texts) == .number { field.readsAs = .number }
            columns[derived.name] = nil
            if let index = fields.firstIndex(where: { $0.path == derived.name }) {
                field.isDerived = true
                // A list in the data stays one, however few values each record has: people's
                // `species` (one or none each) is a list, as the same field of a generic copy.
                if fields[index].inList { field.inList = true }
                fields[index] = field
            } else {
                fields.append(field)
            }
        }
        self.init(fields: fields, columns: columns)
    }

    /// Walks every record once, identifying paths by (parent path, key node).
    private struct Builder {
        let document: JSONDocument
        let rows: Int
        var record = 0
        var pathIDs: [PathKey: Int] = [:]
        var paths: [PathInfo] = []

        struct PathKey: Hashable {
            var parent: Int
            var key: UInt64
        }

        struct PathInfo {
            var name: String
            var kinds: Set<JSONDocument.Kind> = []
            var inList = false
            var count = 0
            var lastRecord = -1
            var example: String?
            var distinct: Set<UInt64> = []
            var distinctTexts: [String] = []
            var tooMany = false
            var isContainer = false
            /// Values by what they read as: JSON numbers, text numbers, ISO dates, other text.
            var numbers = 0
            var numericTexts = 0
            var dates = 0
            var texts = 0
            /// Per row, while the path looks like one value per record.
            var columnKinds: [UInt8]
            var columnWords: [UInt64]
        }

        init(document: JSONDocument, rows: Int) {
            self.document = document
            self.rows = rows
        }

        mutating func visit(_ node: Int, path: Int, inList: Bool) {
            let kind = document.kind(at: node)
            switch kind {
            case .object:
                if path >= 0 {
                    markContainer(path)
                    if inList { markList(path) }
                    noteObject(path, node: node)
                }
                var child = node + 2
                for _ in 0..<document.count(at: node) {
                    let id = pathID(parent: path, keyNode: child)
                    visit(child + 1, path: id, inList: inList)
                    child = document.end(of: child + 1)
                }
            case .array:
                guard path >= 0 else { return }
                markList(path)
                var child = node + 2
                for _ in 0..<document.count(at: node) {
                    visit(child, path: path, inList: true)
                    child = document.end(of: child)
                }
            default:
                guard path >= 0 else { return }
                note(path, kind: kind, node: node, inList: inList)
            }
        }

        /// An object is a value of its field: the field is an object, present in this record
        /// (unless empty), and named by its identity in the example.
        mutating func noteObject(_ path: Int, node: Int) {
            paths[path].kinds.insert(.object)
            paths[path].tooMany = true
            guard document.count(at: node) > 0 else { return }
            if paths[path].lastRecord != record {
                paths[path].lastRecord = record
                paths[path].count += 1
            }
            if paths[path].example == nil, let text = ObjectIdentity.text(of: node, in: document) {
                paths[path].example = FieldCatalog.glimpse(of: text)
            }
        }

        mutating func markContainer(_ path: Int) {
            paths[path].isContainer = true
            dropColumn(path)
        }

        mutating func markList(_ path: Int) {
            paths[path].inList = true
            dropColumn(path)
        }

        mutating func dropColumn(_ path: Int) {
            if !paths[path].columnKinds.isEmpty {
                paths[path].columnKinds = []
                paths[path].columnWords = []
            }
        }

        mutating func note(_ path: Int, kind: JSONDocument.Kind, node: Int, inList: Bool) {
            if inList { markList(path) }
            let absentWord = kind == .string && ValueText.isAbsent(stringAt: node, in: document)
            if !absentWord { paths[path].kinds.insert(kind) }
            if !paths[path].columnKinds.isEmpty {
                paths[path].columnKinds[record] = kind.rawValue
                paths[path].columnWords[record] = kind == .number ? document.node(node + 1) : document.node(node)
            }
            guard kind != .null, !absentWord else { return }
            if kind == .number { paths[path].numbers += 1 }
            if kind == .string {
                switch reading(node) {
                case .number: paths[path].numericTexts += 1
                case .date: paths[path].dates += 1
                case .text: paths[path].texts += 1
                }
            }
            if paths[path].lastRecord != record {
                paths[path].lastRecord = record
                paths[path].count += 1
            }
            if paths[path].example == nil {
                let text = kind == .string || kind == .number ? document.string(at: node) : (kind == .true ? "true" : "false")
                if !text.isEmpty { paths[path].example = FieldCatalog.glimpse(of: text) }
            }
            if !paths[path].tooMany {
                // Equal interned strings have equal nodes, equal numbers equal bits; long strings count as distinct.
                let identity = kind == .string ? document.node(node) : kind == .number ? document.node(node + 1) : UInt64(kind.rawValue)
                if paths[path].distinct.insert(identity).inserted {
                    if paths[path].distinct.count > FieldCatalog.fewValues {
                        paths[path].tooMany = true
                        paths[path].distinct = []
                        paths[path].distinctTexts = []
                    } else {
                        paths[path].distinctTexts.append(kind == .string || kind == .number ? document.string(at: node) : (kind == .true ? "true" : "false"))
                    }
                }
            }
        }

        /// A string's reading (TextReading: one byte decides most text).
        func reading(_ node: Int) -> TextReading {
            let range = document.textRange(at: node)
            return document.arena.withUnsafeBufferPointer { TextReading.of(utf8: UnsafeBufferPointer(rebasing: $0[range])) }
        }

        mutating func pathID(parent: Int, keyNode: Int) -> Int {
            let key = PathKey(parent: parent, key: document.node(keyNode))
            if let id = pathIDs[key] { return id }
            let name = (parent >= 0 ? paths[parent].name + "." : "") + document.string(at: keyNode)
            // A column is kept only for paths that hang off objects, never inside a list.
            let inList = parent >= 0 && paths[parent].inList
            paths.append(PathInfo(name: name,
                                  columnKinds: inList ? [] : [UInt8](repeating: Column.missing, count: rows),
                                  columnWords: inList ? [] : [UInt64](repeating: 0, count: rows)))
            pathIDs[key] = paths.count - 1
            return paths.count - 1
        }

        func finish() -> ([Field], [String: Column]) {
            var columns: [String: Column] = [:]
            let fields = paths.filter { !$0.isContainer || !$0.kinds.isEmpty }.map { info in
                if !info.columnKinds.isEmpty, !info.inList, !info.isContainer {
                    columns[info.name] = Column(kinds: info.columnKinds, words: info.columnWords)
                }
                var field = Field(path: info.name, kinds: info.kinds, inList: info.inList, count: info.count, example: info.example,
                                  values: info.tooMany ? nil : info.distinctTexts.filter { !$0.isEmpty }.sorted(), isDerived: false)
                if info.numericTexts + info.dates > 0 {
                    field.readsAs = TextReading.dominant(numbers: info.numbers + info.numericTexts, dates: info.dates, texts: info.texts)
                }
                return field
            }
            return (fields, columns)
        }
    }
}
