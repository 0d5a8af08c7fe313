import AlmanacCore

/// `why #N`: which conditions of the filters in force record N of the results meets, each with
/// the record's values (for a list, which elements matched). Given an id or a name, the record
/// may be one the filters left out: then it says which condition it fails.
public enum WhyCommand: Command {
    static let target = Parameter("#ROW|ID|NAME", .text(.recordName), .words)

    public static let spec = CommandSpec(
        name: "why",
        summary: "Show which conditions of the filter a record meets, with its values",
        parameters: [target],
        examples: ["filter region = Europe and languages.name = French; why #2", "why NOR"],
        discussion: """
        The conditions are those of every filter (and group drill-down) since the last search or \
        clear, split at their top-level and. Beside each, the record's value of each field it \
        compares; for a list, the elements that matched and how many it has. A record named by \
        its id or name may be one the filters left out: the conditions it fails are marked; one \
        that a search, near, within, outside, reach or limit left out is said to be not among the \
        results (on an attached table, the row is told by its primary key, else by its text \
        columns).
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let given = try arguments.parse()[target]
        let text = given.map(\.text).joined(separator: " ")
        var record: RecordTarget
        do {
            record = try RecordTarget.resolve(text, in: session)
        } catch let error as ShellError {
            guard case let .invalid(message) = error, !message.contains("\n") else { throw error }
            throw error.pointing(at: given.map(\.word))
        }
        let conditions = try session.results().conditions
        let label = SafeText.escape((text.hasPrefix("#") ? text.trimmingCharacters(in: .whitespaces) + " " : "")
                                    + record.dataset.name(of: record.row))
        let columns = [ResultColumn("condition"), ResultColumn("holds", .boolean), ResultColumn("values")]
        // A record named by id or name may be one a step other than a filter left out (near,
        // within, outside, reach, search, limit): no condition says so, the results do.
        let named = !text.trimmingCharacters(in: .whitespaces).hasPrefix("#")
        let leftOut = try named && !Self.isAmongResults(record, in: session)
        // A table's row named is read again as the measuring step gives it, with its distance.
        var measured = !named
        if named, let row = try Self.measuredRow(record, in: session) { (record, measured) = (row, true) }
        let notAmong = "\(label) is not among the results: a search, near, within, outside, reach or limit left it out"
        guard !conditions.isEmpty else {
            return CommandResult(ResultTable(columns: columns, rows: []),
                                 emptyNote: leftOut ? notAmong : "no filter in force: every record of the results is there (filter narrows them)")
        }
        let checks = try Self.checks(conditions, on: record, named: text, measured: measured, in: session)
        let rows: [[ResultValue]] = checks.map { [.text($0.condition), .boolean($0.holds), .text($0.values.joined(separator: "; "))] }
        let met = checks.filter(\.holds).count
        let heading = met == checks.count
            ? "\(label) meets \(checks.count == 1 ? "the condition" : "all \(checks.count) conditions"):"
            : "\(label) meets \(met) of \(checks.count) conditions:"
        let width = checks.map { TextWidth.of($0.condition) }.max() ?? 0
        let lines = checks.map { check in
            let values = check.values.joined(separator: "; ")
            let condition = values.isEmpty ? check.condition : TextWidth.pad(check.condition, to: width, alignRight: false)
            return ("  " + (check.holds ? "✓ " : "✗ ") + SafeText.escape(condition) + (values.isEmpty ? "" : "   " + SafeText.escape(values)))
                .trailingSpacesRemoved
        }
        // Every condition met, yet left out: what left it out was no filter.
        let after = leftOut && met == checks.count ? ["but " + notAmong] : []
        return CommandResult(ResultTable(columns: columns, rows: rows), prose: .lines([heading] + lines + after))
    }

    /// Whether `record` is among the current results: in memory one of their items; on a
    /// table, the results narrowed by the row's key (`rowKey`) still hold it (a row without
    /// one is taken to be there).
    static func isAmongResults(_ record: RecordRef, in session: Session) throws -> Bool {
        let results = try session.results()
        if let inMemory = results.inMemory {
            guard let index = inMemory.datasets.firstIndex(where: { $0 === record.dataset }) else { return false }
            let item = ResultSet.Item(dataset: index, row: record.row)
            return inMemory.items.contains(item)
        }
        guard let key = try rowKey(record, of: results, in: session) else { return true }
        var narrowed = try narrowing(results, to: key, in: session)
        return try narrowed.count(fresh: true, cancellation: session.cancellation) > 0
    }

    /// `source` narrowed to the row whose fields have `key`'s values.
    static func narrowing<Source: ResultsSource>(_ source: Source, to key: [(String, String)], in session: Session) throws -> Source {
        var narrowed = source
        for (field, value) in key {
            narrowed = try narrowed.applying(.filter(.comparison(field: field, op: .equal, value: value)), cancellation: session.cancellation)
        }
        return narrowed
    }

    /// On a table whose results a step measured (near, outside, reach), `record` as that step
    /// gives it, carrying the distance filters compare; nil in memory, without such a step,
    /// or when the step left the row out (then it has no distance, as in memory).
    static func measuredRow(_ record: RecordRef, in session: Session) throws -> RecordRef? {
        let results = try session.results()
        guard results.inMemory == nil, let measured = results.measured, let key = try rowKey(record, of: results, in: session) else { return nil }
        var narrowed = try narrowing(measured, to: key, in: session)
        guard try narrowed.count(fresh: true, cancellation: session.cancellation) > 0 else { return nil }
        return try narrowed.record(at: 0, cancellation: session.cancellation)
    }

    /// The conditions checked on the record: in memory on the record itself; on a table, whose
    /// paths across links only the database follows, by asking it — a row of the results meets
    /// every condition, another meets one when the table narrowed by it still has the row.
    static func checks(_ conditions: [FilterExpression], on record: RecordRef, named text: String, measured: Bool,
                       in session: Session) throws -> [ConditionCheck] {
        if let results = try session.results().inMemory {
            return try ConditionCheck.check(conditions, on: record, among: results, cancellation: session.cancellation)
        }
        let inResults = text.trimmingCharacters(in: .whitespaces).hasPrefix("#")
        let owner = try session.results().datasetNames.first?.lowercased()
        let linked = Set(session.catalog.links.filter { $0.from.lowercased() == owner }.map { $0.name.lowercased() })
        let key = try rowKey(record, of: session.results(), in: session)
        let fetched = try key.map { try linkedValues(ConditionCheck.linkedOperands(of: conditions, linked: linked), key: $0, in: session) } ?? [:]
        return try ConditionCheck.check(conditions, on: record, linked: linked, fetched: fetched) { condition in
            // A computed condition's fields too (`homeworld.population / 1000 > 100`): the row
            // alone cannot follow the link.
            let crossesLink = condition.fields.contains { linked.contains(String($0.split(separator: ".").first ?? "").lowercased()) }
            // A row the measuring step left out has no distance: a condition on it fails, as in memory.
            if !measured, condition.fields.contains(where: { ComputedColumn.stepNames.contains($0.lowercased()) }),
               try session.results().measured != nil {
                return false
            }
            if !crossesLink { return try ConditionCheck.holds(condition, on: record, cancellation: session.cancellation) }
            if inResults { return true }
            // The table narrowed by the condition and the row's key: does it still hold the row?
            guard let key else {
                throw ShellError.invalid("on \(owner ?? "a table") why can follow a link only for a row of the results (why #N) "
                    + "or one with a primary key or text values")
            }
            var narrowed = try narrowing(session.freshResults().applying(.filter(condition), cancellation: session.cancellation),
                                         to: key, in: session)
            return try narrowed.count(fresh: true, cancellation: session.cancellation) > 0
        }
    }

    /// The values the database computes for the row `key` tells (paths across links, operands
    /// crossing them), by name: the table narrowed to the row, showing them as columns.
    static func linkedValues(_ operands: [String], key: [(String, String)], in session: Session) throws -> [String: ResultValue] {
        guard !operands.isEmpty else { return [:] }
        var narrowed = try narrowing(session.freshResults(), to: key, in: session)
        narrowed.showing(operands)
        let page = try narrowed.page(start: 0, size: 1, cancellation: session.cancellation)
        guard page.range.count == 1, let sent = page.results.datasets.first?.extras[ComputedColumns.self]?.values else { return [:] }
        let row = page.results.items[page.range.lowerBound].row
        return sent.compactMapValues { $0.indices.contains(row) ? $0[row] : nil }
    }

    /// What tells a table's row from the others, each column with the row's value: its primary
    /// key; without one, the column show finds it by (a unique one, an `id`); else its text
    /// columns that have a value (a twin equal in all of them is the same answer). Nil when
    /// the row has none of these.
    static func rowKey(_ record: RecordRef, of results: any ResultsSource, in session: Session) throws -> [(String, String)]? {
        let dataset = record.dataset
        func value(_ field: String) -> String? {
            dataset.values(of: dataset.compile(FieldPath(field)), row: record.row).first.map { dataset.text(of: $0) }
        }
        let primary = results.primaryKey
        if !primary.isEmpty {
            let key = primary.compactMap { field in value(field).map { (field, $0) } }
            return key.count == primary.count ? key : nil
        }
        if let identity = dataset.layout.identityField, let value = value(identity) { return [(identity, value)] }
        let text = try dataset.fields(cancellation: session.cancellation).fields.filter { field in
            !field.inList && !field.isDerived && !field.path.contains(".") && field.kinds.subtracting([.null]) == [.string]
        }
        let key = text.compactMap { field in value(field.path).flatMap { $0.isEmpty ? nil : (field.path, $0) } }
        return key.isEmpty ? nil : key
    }
}
