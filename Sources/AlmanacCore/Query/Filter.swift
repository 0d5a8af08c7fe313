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
        case let .comparison(field, _, _) where DatasetField.names(field, in: catalogs):
            break
        case let .comparison(field, op, value):
            let known = catalogs.compactMap { FieldLookup.field(field, in: $0) }
            if known.isEmpty, let path = try datasets.lazy.compactMap({ try LinkPath.resolve(field, from: $0) }).first {
                return try path.checkComparison(op, value)
            }
            guard !known.isEmpty else { throw QueryError.unknownField(field, among: catalogs, of: datasets) }
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
            throw QueryError.unknownField(field, among: catalogs, of: datasets)
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

extension QueryError {
    /// `field` is none of the fields of results over `catalogs`: the error names the closest
    /// of them, `dataset` among them when the results span datasets (`use all`).
    /// `datasets`: the results' datasets, whose name fields answer for `name`.
    static func unknownField(_ field: String, among catalogs: [FieldCatalog], of datasets: [Dataset]) -> QueryError {
        var names = Set(catalogs.flatMap { FieldLookup.names(in: $0) })
        if DatasetField.names(DatasetField.name, in: catalogs) { names.insert(DatasetField.name) }
        let suggestion = Suggestion.field(field, among: names.sorted(), namedBy: datasets.map(\.layout.nameField))
        return .unknownField(field, suggestion: field.isEmpty ? nil : suggestion)
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
            if DatasetField.names(field, in: others) {
                return [Bool](repeating: DatasetField.meets(dataset.name, op, value), count: rows.count)
            }
            guard FieldLookup.field(field, in: fields) != nil else {
                if let path = try LinkPath.resolve(field, from: dataset, cancellation: cancellation) {
                    return try LinkGather.matches(path, op, value, rows: rows, cancellation: cancellation)
                }
                return [Bool](repeating: false, count: rows.count)
            }
            let path = dataset.compile(FieldPath(field))
            var comparison = FieldComparison(dataset: dataset, path: path, op: op, value: value)
            // Containment in a number's text needs the literal, which columns do not keep; a
            // column holds one spelling of a key spelt two ways (`first_name`, `first-name`).
            // So does a number past 2⁵³, which only its literal tells apart from its neighbours,
            // and a number compared with a value that is no number (`= ""`, `> '5x'`: by its text).
            let needsLiteral = (op == .contains || op == .notContains || comparison.exactValue != nil || comparison.numberValue == nil)
                && (fields.field(field)?.kinds.contains(.number) ?? false)
            if let column = fields.column(field), !needsLiteral, !path.hasTwinSpellings {
                return try comparison.run(rows, column: column, cancellation: cancellation)
            }
            return try comparison.run(rows, cancellation: cancellation)
        }
    }
}
