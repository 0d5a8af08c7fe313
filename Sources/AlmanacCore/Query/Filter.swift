import CGlibc

/// Runs a `FilterExpression` over a result set. Strings compare ignoring case and diacritics,
/// numbers numerically; a path that reaches several values (lists, nested lists of objects)
/// matches when any of them does, and `!=`/`!~` mean "none of them".
public enum Filter {
    public static func run(_ expression: FilterExpression, on results: ResultSet, cancellation: Cancellation = .never) throws -> ResultSet {
        let catalogs = try results.datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        try validate(expression, against: catalogs, computed: results.computed, datasets: results.datasets)
        if results.datasets.count == 1 { return try runOne(expression, on: results, catalogs: catalogs, cancellation: cancellation) }
        // Each dataset's rows are filtered column by column: one comparison over all rows at a
        // time, then the masks combined.
        var masks: [[Bool]] = []
        let (rowsByDataset, positions) = results.rowsByDataset
        for (index, dataset) in results.datasets.enumerated() {
            var filter = CompiledFilter(dataset: dataset, fields: catalogs[index], rows: rowsByDataset[index], cancellation: cancellation)
            filter.computed = results.computed.isEmpty ? nil : (results.computed, index)
            filter.others = catalogs
            masks.append(try filter.evaluate(expression))
        }
        var kept: [ResultSet.Item] = []
        for (position, item) in results.items.enumerated() where masks[item.dataset][positions[position]] {
            kept.append(item)
        }
        return results.with(kept)
    }

    /// Unknown fields and values of the wrong type are errors before anything runs.
    /// `datasets`: the catalogs' datasets, whose links a field may cross.
    public static func validate(_ expression: FilterExpression, against catalogs: [FieldCatalog], computed: [ComputedColumn] = [],
                                datasets: [Dataset] = []) throws {
        switch expression {
        case let .and(left, right), let .or(left, right):
            try validate(left, against: catalogs, computed: computed, datasets: datasets)
            try validate(right, against: catalogs, computed: computed, datasets: datasets)
        case let .not(inner):
            try validate(inner, against: catalogs, computed: computed, datasets: datasets)
        case .computed:
            // Bound against each dataset before it is filtered (`CompiledFilter`).
            break
        case let .comparison(field, op, value) where computed.named(field) != nil:
            try ComputedColumn.validate(op, value, field: field)
        case let .comparison(field, op, value):
            let known = catalogs.compactMap { FieldLookup.field(field, in: $0) }
            if known.isEmpty, let path = try datasets.lazy.compactMap({ try LinkPath.resolve(field, from: $0) }).first {
                return try path.checkComparison(op, value)
            }
            guard !known.isEmpty else {
                let all = Set(catalogs.flatMap { FieldLookup.names(in: $0) })
                throw QueryError.unknownField(field, suggestion: Suggestion.closest(to: field, among: all.sorted()))
            }
            if op != .contains, op != .notContains, known.allSatisfy({ $0.isNumeric }),
               NumericText.literal(value) == nil, value.lowercased() != "null", !ValueText.isAbsent(value) {
                throw QueryError.typeMismatch(field: field, type: known[0].typeDescription,
                                              message: "'\(value)' is not a number")
            }
        }
    }
}

/// Field names as users may type them: every inferred path, and the containers above them
/// (`translations` reaches all translations).
public enum FieldLookup {
    /// The datasets' field catalogs, after checking some dataset has the field.
    @discardableResult
    public static func require(_ field: String, in datasets: [Dataset], cancellation: Cancellation) throws -> [FieldCatalog] {
        let catalogs = try datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        guard catalogs.contains(where: { Self.field(field, in: $0) != nil }) else {
            let all = Set(catalogs.flatMap { names(in: $0) })
            throw QueryError.unknownField(field, suggestion: Suggestion.closest(to: field, among: all.sorted()))
        }
        return catalogs
    }

    public static func field(_ name: String, in fields: FieldCatalog) -> FieldCatalog.Field? {
        if let field = fields.field(name) { return field }
        // Keys that differ only by `_`/`-` are one field (`iso639_1`, `iso639-1`).
        let spelling = canonical(name)
        if let twin = fields.paths.first(where: { canonical($0) == spelling }), let field = fields.field(twin) { return field }
        let prefix = name + "."
        let children = fields.fields.filter { $0.path.hasPrefix(prefix) }
        guard let first = children.first else { return nil }
        var merged = first
        merged.path = name
        merged.inList = true
        for child in children.dropFirst() {
            merged.kinds.formUnion(child.kinds)
            merged.count = max(merged.count, child.count)
        }
        merged.values = nil
        return merged
    }

    /// `iso639-1` and `iso639_1` alike, for comparing names.
    static func canonical(_ name: String) -> String { name.replacingOccurrences(of: "-", with: "_") }

    /// Every name `field(_:in:)` accepts: paths and their containers.
    public static func names(in fields: FieldCatalog) -> [String] {
        var names: [String] = []
        var seen = Set<String>()
        for path in fields.paths {
            let parts = path.split(separator: ".")
            for length in 1...parts.count {
                let name = parts.prefix(length).joined(separator: ".")
                if seen.insert(name).inserted { names.append(name) }
            }
        }
        return names
    }
}

/// Errors of queries, worded for the user.
public enum QueryError: Error, Equatable, CustomStringConvertible {
    case unknownField(String, suggestion: String?)
    case typeMismatch(field: String, type: String, message: String)
    case invalid(String)
    /// A path through a field that is no link, or to a field the linked dataset lacks.
    case notALink(path: String, message: String)

    public var description: String {
        switch self {
        case let .unknownField(field, suggestion):
            if let suggestion { return "unknown field '\(field)' — did you mean '\(suggestion)'?" }
            return "unknown field '\(field)' — 'fields' lists them"
        case let .typeMismatch(field, type, message):
            return "\(field) is \(type.hasPrefix("list") ? "a " : "")\(type == "number" ? "a number" : type == "text" ? "text" : type); \(message)"
        case let .invalid(message), let .notALink(_, message):
            return message
        }
    }
}

/// A filter run over the rows of one dataset, a comparison at a time: the path compiled and
/// the value folded and read as a number once per comparison, then one tight loop over the
/// rows. Text is compared as folded UTF-8 bytes, and the result for each distinct short string
/// is remembered (equal short strings share one node, so a million stations in one country are
/// one comparison).
struct CompiledFilter {
    let dataset: Dataset
    let fields: FieldCatalog
    let rows: [Int]
    let cancellation: Cancellation
    /// The results' computed columns (near's distance) and this dataset's place among the results' datasets.
    var computed: (columns: [ComputedColumn], dataset: Int)?
    /// Every dataset's fields, where the results span several (a field one of them has is no error).
    var others: [FieldCatalog] = []

    init(dataset: Dataset, fields: FieldCatalog, rows: [Int], cancellation: Cancellation) {
        self.dataset = dataset
        self.fields = fields
        self.rows = rows
        self.cancellation = cancellation
    }

    /// Whether each row matches.
    func evaluate(_ expression: FilterExpression) throws -> [Bool] {
        switch expression {
        case let .and(left, right):
            var mask = try evaluate(left)
            if mask.contains(true) {
                let other = try evaluate(right)
                for index in mask.indices { mask[index] = mask[index] && other[index] }
            }
            return mask
        case let .or(left, right):
            var mask = try evaluate(left)
            if mask.contains(false) {
                let other = try evaluate(right)
                for index in mask.indices { mask[index] = mask[index] || other[index] }
            }
            return mask
        case let .not(inner):
            return try evaluate(inner).map { !$0 }
        case let .computed(expression):
            let steps = computed?.columns ?? []
            let bound = try ExpressionBinder(DatasetFields(dataset, catalog: fields, others: others, stepColumns: steps)).bindCondition(expression)
            return try ExpressionEvaluator(dataset: dataset, catalog: fields, rows: rows, cancellation: cancellation,
                                           stepColumns: steps, datasetIndex: computed?.dataset ?? 0).mask(bound)
        case let .comparison(field, op, value):
            if let computed, let column = computed.columns.named(field) {
                return column.matches(op, value, rows: rows, dataset: computed.dataset)
            }
            guard FieldLookup.field(field, in: fields) != nil else {
                if let path = try LinkPath.resolve(field, from: dataset, cancellation: cancellation) {
                    return try LinkGather.matches(path, op, value, rows: rows, cancellation: cancellation)
                }
                return [Bool](repeating: false, count: rows.count)
            }
            let path = dataset.compile(FieldPath(field))
            var comparison = Comparison(dataset: dataset, path: path, op: op, value: value)
            // Containment in a number's text needs the literal, which columns do not keep; a
            // column holds one spelling of a key spelt two ways (`first_name`, `first-name`).
            // So does a number past 2⁵³, which only its literal tells apart from its neighbours.
            let needsLiteral = (op == .contains || op == .notContains || comparison.exactValue != nil)
                && (fields.field(field)?.kinds.contains(.number) ?? false)
            if let column = fields.column(field), !needsLiteral, !path.hasTwinSpellings {
                return try comparison.run(rows, column: column, cancellation: cancellation)
            }
            return try comparison.run(rows, cancellation: cancellation)
        }
    }
}

/// One `FIELD OP VALUE` over many rows.
private struct Comparison {
    let dataset: Dataset
    let document: JSONDocument
    let path: Dataset.CompiledPath
    /// = or ~ (their negations flip the result: "no value matches").
    let op: FilterExpression.Operator
    let negated: Bool
    let foldedValue: [UInt8]
    let numberValue: Double?
    /// The value exactly, when a Double cannot tell it from its neighbours (`ExactNumber`).
    let exactValue: ExactNumber?
    private var cache = ResultCache()
    private var scratch: [UInt8] = []

    init(dataset: Dataset, path: Dataset.CompiledPath, op: FilterExpression.Operator, value: String) {
        self.dataset = dataset
        self.document = dataset.document
        self.path = path
        self.negated = op == .notEqual || op == .notContains
        self.op = op == .notEqual ? .equal : (op == .notContains ? .contains : op)
        self.foldedValue = Array(Folding.fold(value).utf8)
        // `100BBY` and `1,000` are numbers as the data's text is (NumericText).
        self.numberValue = NumericText.literal(value)
        self.exactValue = numberValue.flatMap { ExactNumber.isAmbiguous($0) ? ExactNumber(value) : nil }
    }

    mutating func run(_ rows: [Int], cancellation: Cancellation) throws(CancelledError) -> [Bool] {
        var mask = [Bool](repeating: false, count: rows.count)
        for (position, row) in rows.enumerated() {
            if position & 0x3FFF == 0 { try cancellation.checkpoint() }
            // The common case, a path that reaches one scalar, without closures.
            let matched: Bool
            switch dataset.scalar(of: path, row: row) {
            case .missing:
                matched = false
            case let .node(node):
                matched = test(node: node)
            case .several:
                var any = false
                dataset.forEachValue(of: path, row: row) { value in
                    if !any, test(value) { any = true }
                }
                matched = any
            }
            mask[position] = matched != negated
        }
        return mask
    }

    /// The same over a field's column: one value per row, read in order.
    mutating func run(_ rows: [Int], column: FieldCatalog.Column, cancellation: Cancellation) throws(CancelledError) -> [Bool] {
        var mask = [Bool](repeating: false, count: rows.count)
        try column.kinds.withUnsafeBufferPointer { kinds throws(CancelledError) in
            try column.words.withUnsafeBufferPointer { words throws(CancelledError) in
                for (position, row) in rows.enumerated() {
                    if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                    let matched: Bool
                    switch kinds[row] {
                    case FieldCatalog.Column.missing:
                        matched = false
                    case JSONDocument.Kind.number.rawValue:
                        matched = compareNumber(Double(bitPattern: words[row])) { [] }
                    case JSONDocument.Kind.string.rawValue:
                        matched = test(stringWord: words[row])
                    case JSONDocument.Kind.true.rawValue:
                        matched = compareLiteral("true")
                    case JSONDocument.Kind.false.rawValue:
                        matched = compareLiteral("false")
                    default:
                        matched = compareLiteral("null")
                    }
                    mask[position] = matched != negated
                }
            }
        }
        return mask
    }

    private mutating func test(_ value: FieldValue) -> Bool {
        switch value {
        case let .number(number):
            return compareNumber(number) { Array(NumberFormat.plain(number).utf8) }
        case let .text(text):
            var text = text
            scratch.removeAll(keepingCapacity: true)
            text.withUTF8 { Folding.appendFolded(utf8: $0, to: &scratch) }
            return compareFoldedScratch { text }
        case let .node(node):
            return test(node: node)
        }
    }

    @inline(__always)
    private mutating func test(node: Int) -> Bool {
        let word = document.node(node)
        switch JSONDocument.kind(ofWord: word) {
        case .number:
            let document = self.document
            return compareNumber(document.number(at: node)) { Array(document.arena[document.textRange(at: node)]) }
        case .string:
            return test(stringWord: word)
        case .true: return compareLiteral("true")
        case .false: return compareLiteral("false")
        case .null: return compareLiteral("null")
        case .array, .object: return false
        }
    }

    /// A string, given its node word (which holds where its text is in the arena).
    @inline(__always)
    private mutating func test(stringWord word: UInt64) -> Bool {
        if let known = cache[word] { return known }
        let range = JSONDocument.textRange(ofWord: word)
        scratch.removeAll(keepingCapacity: true)
        document.arena.withUnsafeBufferPointer { arena in
            Folding.appendFolded(utf8: UnsafeBufferPointer(rebasing: arena[range]), to: &scratch)
        }
        let document = self.document
        let result = compareFoldedScratch {
            document.arena.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
        }
        cache[word] = result
        return result
    }

    private mutating func compareLiteral(_ text: String) -> Bool {
        scratch = Array(text.utf8)
        return compareFoldedScratch { text }
    }

    private func compareNumber(_ number: Double, text: () -> [UInt8]) -> Bool {
        guard let wanted = numberValue, op != .contains else {
            return Self.compareBytes(Array(Folding.fold(String(decoding: text(), as: UTF8.self)).utf8), foldedValue, op)
        }
        if number == wanted, let exactValue, let exact = ExactNumber(String(decoding: text(), as: UTF8.self)) {
            // One Double, maybe two numbers: the literals decide.
            return Self.compare(exact, exactValue, op)
        }
        return Self.compare(number, wanted, op)
    }

    private static func compare<Value: Comparable>(_ value: Value, _ wanted: Value, _ op: FilterExpression.Operator) -> Bool {
        switch op {
        case .equal: return value == wanted
        case .less: return value < wanted
        case .lessOrEqual: return value <= wanted
        case .greater: return value > wanted
        case .greaterOrEqual: return value >= wanted
        default: return false
        }
    }

    /// Compares the folded text in `scratch` with the value.
    private func compareFoldedScratch(original: () -> String) -> Bool {
        // Against a number, text orders only when it reads as one ("200" > 100, as SWAPI writes
        // numbers); words like "unknown" are neither more nor less than a number.
        if op.isOrdering, numberValue != nil {
            let text = original()
            guard let number = NumericText.value(of: text) else { return false }
            return compareNumber(number) { Array(text.utf8) }
        }
        return Self.compareBytes(scratch, foldedValue, op)
    }

    private static func compareBytes(_ text: [UInt8], _ wanted: [UInt8], _ op: FilterExpression.Operator) -> Bool {
        switch op {
        case .equal: return text == wanted
        case .contains:
            if wanted.isEmpty { return true }
            if text.count < wanted.count { return false }
            return text.withUnsafeBufferPointer { hay in
                wanted.withUnsafeBufferPointer { almanac_memmem(hay.baseAddress, hay.count, $0.baseAddress, $0.count) != nil }
            }
        case .less: return text.lexicographicallyPrecedes(wanted)
        case .lessOrEqual: return !wanted.lexicographicallyPrecedes(text)
        case .greater: return wanted.lexicographicallyPrecedes(text)
        case .greaterOrEqual: return !text.lexicographicallyPrecedes(wanted)
        default: return false
        }
    }
}

/// The remembered result of a comparison per distinct string node: a small direct-mapped
/// table, faster than a dictionary in a loop over every record.
struct ResultCache {
    private var keys = [UInt64](repeating: 0, count: WordHash.cacheSize)
    private var results = [UInt8](repeating: 0, count: WordHash.cacheSize)

    subscript(word: UInt64) -> Bool? {
        get {
            let slot = WordHash.cacheSlot(word)
            return results[slot] != 0 && keys[slot] == word ? results[slot] == 2 : nil
        }
        set {
            let slot = WordHash.cacheSlot(word)
            keys[slot] = word
            results[slot] = newValue.map { $0 ? 2 : 1 } ?? 0
        }
    }
}

extension Filter {
    /// The values `field` reaches in record `row` of `dataset`, each with whether it meets
    /// `op value` on its own (`!=`, `!~`: whether it is not equal, does not contain): which
    /// element of a list matched, as `why` says it.
    public static func values(of field: String, meeting op: FilterExpression.Operator, _ value: String, in dataset: Dataset,
                              row: Int) -> [(value: FieldValue, meets: Bool)] {
        let path = dataset.compile(FieldPath(field))
        var comparison = Comparison(dataset: dataset, path: path, op: op, value: value)
        return dataset.values(of: path, row: row).map { ($0, comparison.meets($0)) }
    }
}

extension Comparison {
    mutating func meets(_ value: FieldValue) -> Bool { test(value) != negated }
}
