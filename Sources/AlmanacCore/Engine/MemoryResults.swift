/// The current results of datasets in memory: the steps of a `QueryStack` over them, each
/// evaluated here (search, filter, sort, group, describe, …).
public struct MemoryResults: ResultsSource {
    public let datasets: [Dataset]
    /// nil until a step is applied: every record of the datasets.
    private var stack: QueryStack?

    public init(datasets: [Dataset]) {
        self.datasets = datasets
    }

    /// Records chosen elsewhere, in their order, as results without steps.
    public init(records: ResultSet) {
        datasets = records.datasets
        stack = QueryStack(records: records)
    }

    /// The results after the last step.
    public var results: ResultSet { stack?.results ?? .all(datasets) }

    /// The steps applied, first to last.
    public var steps: [QueryStep] { stack?.steps ?? [] }

    /// The same, ordering a sort's results in full now if they are not yet (Ctrl-C stops it).
    private func current(_ cancellation: Cancellation) throws -> ResultSet {
        try stack?.results(cancellation: cancellation) ?? .all(datasets)
    }

    public var datasetNames: [String] { datasets.map(\.name) }
    public var inMemory: ResultSet? { results }
    public var hasSteps: Bool { !(stack?.isEmpty ?? true) }
    public var fieldsInUse: [String] { stack?.fieldsInUse ?? [] }
    public var sortFields: [String] { stack?.sortFields ?? [] }
    public var defaultColumns: [String]? { datasets.count == 1 ? datasets[0].layout.listFields : nil }

    public func applying(_ step: QueryStep, cancellation: Cancellation) throws -> MemoryResults {
        var next = self
        var stack = self.stack ?? QueryStack(datasets: datasets)
        try stack.push(step, cancellation: cancellation)
        next.stack = stack
        return next
    }

    /// The same steps over other datasets (the contents a reload brought), as `watch` asks.
    public func replayed(on datasets: [Dataset], cancellation: Cancellation) throws -> MemoryResults {
        var next = MemoryResults(datasets: datasets)
        for step in stack?.steps ?? [] { next = try next.applying(step, cancellation: cancellation) }
        return next
    }

    public func count(fresh: Bool, cancellation: Cancellation) throws -> Int {
        stack?.count ?? datasets.reduce(0) { $0 + $1.count }
    }

    public func page(start: Int, size: Int, cancellation: Cancellation) throws -> ResultsPage {
        let stack = self.stack ?? QueryStack(datasets: datasets)
        let (results, range) = try stack.page(start: start, size: size, cancellation: cancellation)
        return ResultsPage(results: results, range: range, defaultColumns: datasets.first?.layout.listFields ?? [])
    }

    public func record(at offset: Int, cancellation: Cancellation) throws -> RecordRef {
        let stack = self.stack ?? QueryStack(datasets: datasets)
        let (results, range) = try stack.page(start: offset, size: 1, cancellation: cancellation)
        let item = results.items[range.lowerBound]
        return RecordRef(dataset: results.dataset(of: item), row: item.row)
    }

    public func find(_ text: String, limit: Int, cancellation: Cancellation) throws -> RecordMatch {
        try RecordFinder.find(text, in: datasets, cancellation: cancellation)
    }

    public func group(_ spec: GroupSpec, cancellation: Cancellation) throws -> GroupAnswer {
        let results = try current(cancellation)
        let groups = try Group.run(results, by: spec, cancellation: cancellation)
        return GroupAnswer(spec: spec, count: min(groups.count, spec.limit ?? groups.count), total: results.count,
                           groups: groups.count) { groups[$0] }
    }

    public func describe(_ fields: [String], cancellation: Cancellation) throws -> DescribeAnswer {
        let results = try current(cancellation)
        let profiles = try Describe.run(results, fields: fields, cancellation: cancellation)
        return DescribeAnswer(profiles: profiles, sections: results.spansDatasets ? results.datasets.map(\.name) : [])
    }

    public func histogram(_ field: String, bins: Int?, logarithmic: Bool, cancellation: Cancellation) throws -> HistogramAnswer {
        let results = self.results
        let measured = try FieldMeasurements.read(field, from: results, cancellation: cancellation)
        return measured.answer(bins: bins, logarithmic: logarithmic, noun: results.recordNoun)
    }

    public func fields(cancellation: Cancellation) throws -> FieldListing {
        var rows: [FieldListing.Row] = []
        var derived = false
        var notes: [String] = []
        for (index, dataset) in datasets.enumerated() {
            let fields = try dataset.fields(cancellation: cancellation)
            for field in fields.fields {
                rows.append(FieldListing.Row(path: field.path, type: field.typeDescription, records: field.count, example: field.example,
                                             isDerived: field.isDerived, section: index))
                derived = derived || field.isDerived
            }
            if let note = FieldListing.nameNote(dataset.layout, fields: fields.paths) {
                notes.append((datasets.count > 1 ? "\(dataset.name): " : "") + note)
            }
        }
        if derived { notes.append("computed: made by almanac from the source fields") }
        return FieldListing(rows: rows, sections: datasets.count > 1 ? datasetNames : [], notes: notes)
    }

    public func checkField(_ name: String, cancellation: Cancellation) throws -> String {
        let catalogs = try datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        guard !name.isEmpty, catalogs.contains(where: { FieldLookup.field(name, in: $0) != nil }) || DatasetField.names(name, in: catalogs) else {
            if !name.isEmpty, try datasets.contains(where: { try LinkPath.resolve(name, from: $0, cancellation: cancellation) != nil }) {
                return name
            }
            throw QueryError.unknownField(name, among: catalogs, of: datasets)
        }
        return name
    }

    @discardableResult
    public func checkExpression(_ expression: Expression, cancellation: Cancellation) throws -> ValueType {
        let catalogs = try datasets.map { dataset throws(CancelledError) in try dataset.fields(cancellation: cancellation) }
        var types: [ValueType] = []
        for (dataset, catalog) in zip(datasets, catalogs) {
            types.append(try ExpressionBinder(DatasetFields(dataset, catalog: catalog, others: catalogs, stepColumns: results.computed)).bind(expression).type)
        }
        return types.first ?? .null
    }

    @discardableResult
    public func forEachBatch(cancellation: Cancellation, _ body: (ResultSet) throws -> Void) throws -> Int {
        let results = try current(cancellation)
        try body(results)
        return results.count
    }

    /// Field names of datasets whose fields are known (TAB never waits for inference).
    public func completionFields() -> [String] {
        var seen = Set<String>()
        // A step's column (near's `distance`) first: it is read before a field of its name.
        let dataset = DatasetField.names(DatasetField.name, inReady: datasets) ? [DatasetField.name] : []
        return (results.computed.map(\.name) + datasets.compactMap(\.fieldsIfReady).flatMap { FieldLookup.names(in: $0) } + dataset)
            .filter { seen.insert($0).inserted }
    }

    public func completionPaths(continuing fragment: String) -> [(path: String, isLink: Bool)] {
        LinkCompletion.paths(continuing: fragment, from: datasets)
    }

    public func completionValues(of field: String, prefix: String, limit: Int) -> [String]? {
        if DatasetField.names(field, inReady: datasets) { return datasetNames }
        var values: [String] = []
        for dataset in datasets {
            guard let fields = dataset.fieldsIfReady, let known = FieldLookup.field(field, in: fields) else { continue }
            if let few = known.values {
                values += few
            } else if fields.field(field) != nil, let index = ValueIndex.ifReady(dataset, path: field) {
                values += index.values(withPrefix: prefix)
            }
        }
        var seen = Set<String>()
        return values.filter { seen.insert($0).inserted }
    }
}

extension MemoryResults {
    public func completionNames(prefix: String, limit: Int) -> [String]? {
        Self.names(in: datasets, prefix: prefix, limit: limit)
    }

    /// Record names starting with `prefix` (folded); when none does, names with a word starting
    /// with it (`show kingdom`), else other names starting with it as search finds them (a
    /// country's translations and spellings: `show Герм` → Германия), else names one or two
    /// edits from it (`show norwya`). A dataset whose index is still being built offers nothing
    /// yet: TAB never makes the prompt wait.
    public static func names(in datasets: [Dataset], prefix: String, limit: Int,
                             where include: ((Dataset, Int) -> Bool)? = nil) -> [String] {
        let indexes = datasets.compactMap { dataset in NameIndex.ifReady(dataset).map { (dataset, $0) } }
        var names: [String] = []
        func add(_ rows: [Int], of dataset: Dataset) {
            for row in rows where names.count < limit {
                if let include, !include(dataset, row) { continue }
                names.append(dataset.name(of: row))
            }
        }
        for (dataset, index) in indexes {
            add(index.rows(withNamePrefix: prefix, limit: include == nil ? limit : .max), of: dataset)
        }
        guard names.isEmpty, !prefix.isEmpty else { return names }
        let similar = indexes.map { ($0.0, $0.1.similarRows(to: prefix, limit: include == nil ? limit : .max)) }
        for (dataset, rows) in similar where rows.first?.likeness == .containsWord { add(rows.map(\.row), of: dataset) }
        if names.isEmpty {
            for (dataset, index) in indexes where names.count < limit {
                names += index.otherNames(withPrefix: prefix, in: dataset, limit: limit - names.count, where: include).map(\.name)
            }
        }
        if names.isEmpty {
            for (dataset, rows) in similar { add(rows.map(\.row), of: dataset) }
        }
        return names
    }
}
