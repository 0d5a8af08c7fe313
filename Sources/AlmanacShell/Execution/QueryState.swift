import AlmanacCore

/// A change `back` can undo.
public enum Undoable: Sendable {
    /// A step of the query (search, filter, sort, drill-down), and the results before it (nil:
    /// every record).
    case results(previous: (any ResultsSource)?)
    /// A `columns` change for a dataset, and the choice before it (nil: the default columns).
    case columns(dataset: String, previous: [String]?)
}

/// How commands reach the current results: one source, in memory or in a database, and the
/// steps on it undone one at a time.
extension Session {
    /// The current results: the source the steps so far made, or every record of the scope.
    /// `readingFields: false` for an answer that reads no field of the records (`count`): the
    /// datasets they link into are then not waited for.
    public func results(readingFields: Bool = true) throws -> any ResultsSource {
        if let source, isCurrent(source) { return source }
        return try freshResults(readingFields: readingFields)
    }

    /// Every record of the scope: an attached table's rows, or the datasets in memory (waited for).
    func freshResults(readingFields: Bool = true) throws -> any ResultsSource {
        if let name = currentName, name != "all", let table = catalog.table(name) { return table.results() }
        return MemoryResults(datasets: try datasetsInScope(awaitingLinked: readingFields))
    }

    /// A kept source is current unless the table it asks was attached again since.
    private func isCurrent(_ source: any ResultsSource) -> Bool {
        guard let identity = tableIdentity else { return true }
        guard let name = source.datasetNames.first, let table = catalog.table(name) else { return false }
        return ObjectIdentifier(table) == identity
    }

    /// The current results as records in memory, for the commands that read every record
    /// (map, trip, GeoJSON).
    public func currentResults() throws -> ResultSet {
        if let records = try results().inMemory { return records }
        // The same words as asking for the dataset itself.
        _ = try dataset(currentName ?? "")
        throw ShellError.invalid("\(currentName ?? "this dataset") needs its records in memory")
    }

    /// The current results for TAB, never waiting for a load: the kept source, the table in
    /// use, or the datasets of the scope that are loaded.
    func completionSource() -> any ResultsSource {
        if let source { return source }
        if let name = currentName, name != "all", let table = catalog.table(name) { return table.results() }
        return MemoryResults(datasets: scopeNames.compactMap { catalog.dataset($0) })
    }

    /// Applies one step to the current results; their first page is the answer.
    public func apply(_ step: QueryStep) throws -> CommandResult {
        var current = try results()
        // A search starts from the datasets as they are now (a reload may have replaced them).
        if case .search = step, let records = current.inMemory {
            let now = try datasetsInScope()
            if now.count != records.datasets.count || zip(now, records.datasets).contains(where: { $0 !== $1 }) {
                current = MemoryResults(datasets: now)
                undoable.removeAll { if case .results = $0 { true } else { false } }
            }
        }
        let previous = source
        let next = try current.applying(step, cancellation: cancellation)
        let answer = try list(next, page: 1)
        remember(.results(previous: previous))
        return answer
    }

    /// How many changes `back` can undo, and how many records the results it keeps may hold in
    /// all (each kept filter of a big dataset holds its results): past either, the oldest change
    /// is forgotten, and the first time that happens a note says so.
    static let undoLimit = 100
    static let undoRecordBudget = 16_000_000

    /// Keeps `change` for `back`, forgetting the oldest changes past the limits.
    func remember(_ change: Undoable) {
        undoable.append(change)
        var records = undoable.reduce(0) { total, change in
            if case let .results(previous?) = change { return total + (previous.inMemory?.count ?? 0) }
            return total
        }
        var dropped = false
        while undoable.count > Self.undoLimit || (records > Self.undoRecordBudget && undoable.count > 1) {
            if case let .results(previous?) = undoable.removeFirst() { records -= previous.inMemory?.count ?? 0 }
            dropped = true
        }
        if dropped, !saidUndoIsBounded {
            saidUndoIsBounded = true
            output.message("note: back undoes the last \(undoable.count) changes; older ones are forgotten")
        }
    }

    /// Makes `source` the current results, remembering which table it asks.
    func keep(_ source: any ResultsSource) {
        self.source = source
        if let name = source.datasetNames.first, source.datasetNames.count == 1, let table = catalog.table(name) {
            tableIdentity = ObjectIdentifier(table)
        } else {
            tableIdentity = nil
        }
    }

    /// Lists page `page` of `source` and makes it the current results; while a script holds
    /// the listing (`listingWaits`), lists it only when written.
    func list(_ source: any ResultsSource, page: Int) throws -> CommandResult {
        if listingWaits {
            keep(source)
            self.page = page
            forgetLastAnswer()
            return .unmade(page: page)
        }
        var source = source
        let answer = try Listing.result(&source, page: page, in: self)
        keep(source)
        self.page = page
        forgetLastAnswer()
        return answer
    }

    /// Forgets the query, the undo history and the last group listing (`use`).
    func resetQuery() {
        source = nil
        tableIdentity = nil
        undoable = []
        forgetLastAnswer()
        page = 1
    }

    /// A listing or a fresh start ends the turn of the last group, describe or histogram
    /// answer: `show #N` and `export` no longer read it.
    func forgetLastAnswer() {
        lastGroups = nil
        lastSummary = nil
    }

    /// The fields a listing of `page` shows, and whether the user chose them: the chosen
    /// columns (else the dataset's listing fields), then the fields the steps use.
    func listingFields(for page: ResultsPage, of source: any ResultsSource) -> (fields: [String], chosen: Bool) {
        guard let name = source.datasetNames.first, !page.results.spansDatasets else { return ([], false) }
        let chosen = chosenColumns[name]
        return (Self.adding(source.fieldsInUse, to: chosen ?? page.defaultColumns), chosen != nil)
    }

    /// The chosen columns as listings show them (with the fields the steps use); nil when the
    /// user chose none: what `export` writes.
    func chosenFields(of source: any ResultsSource) -> [String]? {
        guard let name = source.datasetNames.first, source.datasetNames.count == 1, let chosen = chosenColumns[name] else { return nil }
        return Self.adding(source.fieldsInUse, to: chosen)
    }

    private static func adding(_ inUse: [String], to fields: [String]) -> [String] {
        var fields = fields
        for field in inUse where !ComputedField.isAmong(fields, field) { fields.append(field) }
        return fields
    }
}
