import AlmanacCore
import Foundation

/// A table or view attached as a dataset: nothing of it is copied. Every operation is one
/// statement in the database, and what comes back is counts, groups, or a page of rows as a
/// small in-memory `Dataset`.
public final class PostgresTable: Sendable {
    /// The dataset's name in almanac.
    public let name: String
    public let url: PostgresURL
    public let connection: PostgresConnection
    public let schema: TableSchema

    var builder: QueryBuilder { QueryBuilder(schema: schema, types: types) }
    /// The expression language's types of the fields, read once.
    let types: ColumnTypes

    /// The server and database the connection reached (`127.0.0.1:5432/shop`).
    public let endpoint: String

    init(name: String, url: PostgresURL, connection: PostgresConnection, schema: TableSchema, endpoint: String) {
        self.name = name
        self.url = url
        self.connection = connection
        self.schema = schema
        self.endpoint = endpoint
        types = ColumnTypes(connection: connection, schema: schema)
    }

    /// Connects and reads the table's columns, key and indexes from the catalog.
    public static func attach(name: String, url: PostgresURL, settings: PostgresConnection.Settings = .init(),
                              cancellation: Cancellation = .never) throws -> PostgresTable {
        guard let table = url.table else {
            throw PostgresError.badURL("which table? add ?table=TABLE to \(url.shown)")
        }
        let connection = try PostgresConnection(url: url, settings: settings)
        do {
            let schema = try TableSchema.read(table, on: connection, cancellation: cancellation)
            return PostgresTable(name: name, url: url, connection: connection, schema: schema,
                                 endpoint: try connection.endpoint(cancellation: cancellation))
        } catch PostgresError.noSuchTable {
            throw PostgresError.noSuchTable(try suggestion(for: table, on: connection, cancellation: cancellation))
        }
    }

    /// `contries — did you mean countries?`, from the tables the user can see.
    private static func suggestion(for table: TableName, on connection: PostgresConnection, cancellation: Cancellation) throws -> String {
        let visible = try connection.query("""
            SELECT CASE WHEN pg_catalog.pg_table_is_visible(c.oid) THEN c.relname ELSE n.nspname || '.' || c.relname END
            FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
            LIMIT 5000
            """, cancellation: cancellation).column(0).compactMap { $0 }
        guard let closest = Suggestion.closest(to: table.description, among: visible) else { return table.description }
        return "\(table.description)' — did you mean '\(closest)"
    }

    /// Where the rows live, for `datasets`: the URL with its password replaced.
    public var source: String { url.shown }

    /// The same table attached again: the catalog read anew, a new connection.

    // MARK: - Operations

    public func count(_ query: TableQuery = TableQuery(), cancellation: Cancellation = .never) throws -> Int {
        Int(try connection.query(builder.count(query), cancellation: cancellation).scalar ?? "0") ?? 0
    }

    /// Whether any row matches: `EXISTS` stops at the first.
    public func hasRows(_ query: TableQuery = TableQuery(), cancellation: Cancellation = .never) throws -> Bool {
        try connection.query(builder.exists(query), cancellation: cancellation).isTrue(0, 0)
    }

    /// The table's rows counted when the database can within `timeout` seconds (for
    /// `datasets`, which must stay quick), else the planner's estimate; nil when neither is known.
    public func quickCount(timeout: Double = 1, cancellation: Cancellation = .never) -> (count: Int, exact: Bool)? {
        if let counted = try? connection.query(builder.count(TableQuery()), cancellation: cancellation, timeout: timeout).scalar,
           let count = Int(counted) {
            return (count, true)
        }
        return schema.estimatedRows > 0 ? (schema.estimatedRows, false) : nil
    }

    /// One page: rows `offset+1…offset+limit` of the query, or the `limit` rows after `after`
    /// (the last row's key, from the previous page) when the table's key orders them.
    /// `computed`: computed columns (`population / area as density`), each added to every row
    /// under its spec, computed by the database.
    public func page(_ query: TableQuery = TableQuery(), offset: Int = 0, limit: Int, after: [String?]? = nil,
                     computed: [String] = [], cancellation: Cancellation = .never) throws -> RowPage {
        let started = Date()
        let (sql, columns) = try builder.page(query, offset: offset, limit: limit, after: after, computed: computed)
        let result = try connection.query(sql, cancellation: cancellation)
        let extras = columns.isEmpty ? ModelExtras()
            : ModelExtras(ComputedColumns.read(result, first: result.columnCount - columns.count, specs: columns))
        let rows = try RowDocument.dataset(result, name: name, layout: schema.layout, source: source, started: started, extras: extras)
        let keys = (0..<result.rowCount).map { row in (0..<schema.primaryKey.count).map { result.value(row, $0 + 1) } }
        return RowPage(rows: rows, keys: keys)
    }

    /// Groups, largest first (at most `limit` of them).
    public func group(_ query: TableQuery = TableQuery(), by spec: GroupSpec, limit: Int? = nil,
                      cancellation: Cancellation = .never) throws -> [GroupRow] {
        guard !spec.fields.isEmpty else { throw PostgresError.invalid("group needs a field") }
        let result = try connection.query(builder.group(query, spec: spec, limit: limit), cancellation: cancellation)
        let columns = spec.fields.count * 2
        return (0..<result.rowCount).map { row in
            GroupRow(values: (0..<spec.fields.count).map { result.value(row, $0 * 2) ?? "" },
                     numbers: (0..<spec.fields.count).map { result.value(row, $0 * 2 + 1) == "true" },
                     count: Int(result.value(row, columns) ?? "0") ?? 0,
                     percent: Double(result.value(row, columns + 1) ?? "0") ?? 0,
                     aggregates: (0..<spec.aggregates.count).map { result.value(row, columns + 2 + $0) },
                     groups: limit == nil ? nil : result.value(row, columns + 2 + spec.aggregates.count).flatMap { Int($0) })
        }
    }

    /// What each field's values are like: counts, distinct values, number statistics, and
    /// for text and other non-numbers the `common` most common values.
    public func describe(_ query: TableQuery = TableQuery(), fields: [String]? = nil, common: Int = 5,
                         cancellation: Cancellation = .never) throws -> [FieldProfile] {
        let fields = fields ?? schema.columns.map(\.name)
        guard !fields.isEmpty else { return [] }
        let first = try connection.query(builder.describe(query, fields: fields), cancellation: cancellation)
        // Text that is (nearly) all ISO dates is described as dates, as memory and sort read it:
        // those fields once more, alone, their statistics over the dates.
        let dated = Set((0..<first.rowCount).compactMap { row -> Int? in
            let count = { (column: Int) in Int(first.value(row, column) ?? "0") ?? 0 }
            let (numbers, dates) = (count(10), count(15))
            guard dates > 0, TextReading.dominant(numbers: numbers, dates: dates, texts: count(11) - dates) == .date else { return nil }
            return Int(first.value(row, 0) ?? "")
        })
        // Each field's row (the first pass's row N is field N's), or the second pass's for the dates.
        var rows = (0..<first.rowCount).map { (result: first, row: $0) }
        if !dated.isEmpty {
            let again = try connection.query(builder.describe(query, fields: fields, dates: dated, only: dated), cancellation: cancellation)
            for row in 0..<again.rowCount { if let position = Int(again.value(row, 0) ?? "") { rows[position] = (again, row) } }
        }
        var profiles: [FieldProfile] = []
        for (result, row) in rows {
            let position = Int(result.value(row, 0) ?? "0") ?? 0
            let field = fields[position]
            var aliases = Aliases()
            let spec = try builder.source(of: field, in: query, aliases: &aliases)
            let number = { (column: Int) in result.value(row, column).flatMap(Double.init) }
            let count = { (column: Int) in Int(result.value(row, column) ?? "0") ?? 0 }
            // As in memory: numbers when (nearly) all values are — a stray word is as absent.
            let (numbers, texts) = (count(10), count(11))
            let isDate: Bool
            let numeric: Bool
            var type: String
            if let reference = spec.reference {
                isDate = dated.contains(position) || reference.path.isEmpty && QueryBuilder.isDate(reference.column.typeName)
                numeric = isDate || reference.column.kind == .number || (numbers > 0 && texts * 4 <= numbers)
                type = reference.path.isEmpty ? Self.describedType(reference.column) : "json"
            } else {
                // A computed value is of the type the binder gave it.
                let computed = spec.type ?? .text
                isDate = computed.element == .date
                numeric = isDate || computed.element == .number
                type = computed.description
            }
            let quartiles = [number(7), number(8), number(9)].compactMap { $0 }
            if isDate {
                type = "date"
            } else if numeric, !type.hasPrefix("number"), !type.hasPrefix("list of number") {
                type = "number (as text)"
            }
            var profile = FieldProfile(
                field: ComputedField.title(of: field), type: type, present: count(1), absent: count(2), distinct: count(3),
                minimum: numeric ? number(4) : nil, maximum: numeric ? number(5) : nil, mean: numeric ? number(6) : nil,
                quartiles: numeric && quartiles.count == 3 ? quartiles : nil, common: [], isDate: isDate)
            if numeric, !isDate, count(13) > 0 { profile.notation = .galacticYear }
            // The database's text of an extreme past 2⁵³ is exact where a Double is not.
            if numeric, !isDate, let minimum = profile.minimum, ExactNumber.isAmbiguous(minimum) {
                profile.exactMinimum = result.value(row, 4).flatMap { ExactNumber($0)?.decimalText }
            }
            if numeric, !isDate, let maximum = profile.maximum, ExactNumber.isAmbiguous(maximum) {
                profile.exactMaximum = result.value(row, 5).flatMap { ExactNumber($0)?.decimalText }
            }
            profile.nonFinite = numeric ? count(14) : 0
            if numeric, let minimum = profile.minimum, let maximum = profile.maximum {
                // The bins memory's describe draws, counted by the database.
                let bins = isDate ? Histogram.dateBins(from: minimum, to: maximum, count: Describe.distributionBins)
                    : Histogram.numberBins(from: minimum, to: maximum, integers: result.isTrue(row, 12), count: Describe.distributionBins)
                let counted = try connection.query(builder.distribution(query, field: field, edges: bins.edges, dates: dated.contains(position)),
                                                   cancellation: cancellation)
                var distribution = [Int](repeating: 0, count: bins.edges.count - 1)
                for bin in 0..<counted.rowCount {
                    if let place = Int(counted.value(bin, 0) ?? ""), distribution.indices.contains(place - 1) {
                        distribution[place - 1] = Int(counted.value(bin, 1) ?? "0") ?? 0
                    }
                }
                profile.distribution = distribution
            }
            if profile.minimum == nil, common > 0 {
                let values = try connection.query(builder.commonValues(query, field: field, limit: common), cancellation: cancellation)
                profile.common = (0..<values.rowCount).map { (values.value($0, 0) ?? "", Int(values.value($0, 1) ?? "0") ?? 0) }
            }
            profiles.append(profile)
        }
        return profiles
    }

    /// A column's type in describe's words, as in memory (`number`, `text`, `list of text`);
    /// other types (dates, times) by the catalog's name.
    static func describedType(_ column: TableSchema.Column) -> String {
        let base: String
        switch column.kind {
        case .number: base = "number"
        case .text: base = "text"
        case .boolean: base = "boolean"
        case .json: base = "json"
        case .other: return column.typeName
        }
        return column.isArray ? "list of \(base)" : base
    }

    /// Every column, and below a JSON column the keys its objects have (sampled from the
    /// first rows): each with its type, how many rows have a value, and an example.
    public func fields(cancellation: Cancellation = .never) throws -> [FieldSummary] {
        var fields: [(column: TableSchema.Column, key: String?)] = []
        for column in schema.columns {
            fields.append((column, nil))
            if column.kind == .json, !column.isArray {
                let keys = try connection.query(builder.jsonKeys(of: column), cancellation: cancellation).column(0).compactMap { $0 }
                fields += keys.map { (column, $0) }
            }
        }
        let result = try connection.query(builder.fieldCounts(fields), cancellation: cancellation)
        var readings = [FieldReadings](repeating: FieldReadings(), count: fields.count)
        if !fields.isEmpty {
            let counted = try connection.query(builder.fieldReadings(fields), cancellation: cancellation)
            for row in 0..<counted.rowCount {
                guard let index = Int(counted.value(row, 0) ?? ""), readings.indices.contains(index) else { continue }
                if counted.isTrue(row, 1) { readings[index].inList = true }
                if let reading = counted.value(row, 2).flatMap(FieldReadings.Reading.init(rawValue:)) {
                    readings[index].add(reading, count: Int(counted.value(row, 3) ?? "0") ?? 0)
                }
            }
        }
        return fields.enumerated().map { index, field in
            FieldSummary(path: field.key.map { field.column.name + "." + $0 } ?? field.column.name,
                         type: readings[index].typeDescription,
                         stored: field.key == nil ? field.column.typeName : "json",
                         count: Int(result.value(0, index) ?? "0") ?? 0,
                         example: result.value(0, fields.count + index).map(FieldCatalog.glimpse(of:)))
        }
    }

    /// What `show TARGET` finds: the row whose primary key is TARGET, else rows named TARGET
    /// (ignoring case and accents), else rows whose names begin with it. At most `limit` rows
    /// come back; `total` says how many matched.
    public func find(_ target: String, limit: Int = 9, cancellation: Cancellation = .never) throws -> Found {
        let started = Date()
        if let sql = builder.byIdentity(target) {
            do {
                let result = try connection.query(sql, cancellation: cancellation)
                if result.rowCount == 1 {
                    return Found(rows: try RowDocument.dataset(result, name: name, layout: schema.layout, source: source, started: started),
                                 total: 1, match: .identity)
                }
            } catch let PostgresError.server(_, state?) where state.hasPrefix("22") {
                // Not a value of the key's type (`show Norway` against an integer key).
            }
        }
        // An exact name, then exactly another name (an author, a city), then a beginning.
        let attempts: [(SQL?, Found.Match)] = [
            (builder.byName(target, prefix: false, limit: limit), .name),
            (builder.byOtherName(target, limit: limit), .otherName),
            (builder.byName(target, prefix: true, limit: limit), .namePrefix),
        ]
        for case let (sql?, match) in attempts {
            let result = try connection.query(sql, cancellation: cancellation)
            if result.rowCount > 0 {
                let total = Int(result.value(0, 1) ?? "0") ?? result.rowCount
                var places: [Int?] = []
                if total > 1, result.columnCount > 2 {
                    let ctids = (0..<result.rowCount).map { result.value($0, 2) ?? "" }
                    let numbered = try connection.query(builder.places(of: ctids), cancellation: cancellation)
                    let place = Dictionary((0..<numbered.rowCount).map { (numbered.value($0, 0) ?? "", Int(numbered.value($0, 1) ?? "") ?? 0) },
                                           uniquingKeysWith: { first, _ in first })
                    places = ctids.map { place[$0] }
                }
                return Found(rows: try RowDocument.dataset(result, name: name, layout: schema.layout, source: source, started: started),
                             total: total, match: match, places: places)
            }
        }
        return Found(rows: RowDocument.empty(name: name, layout: schema.layout, source: source), total: 0, match: .none)
    }

    /// Names beginning with `prefix`, for TAB: quick or nothing (a short time limit, and no
    /// error ever reaches the prompt).
    public func completeNames(_ prefix: String, limit: Int = 50, timeout: Double = 1) -> [String] {
        guard let sql = builder.names(startingWith: prefix, limit: limit) else { return [] }
        return sortedCandidates((try? connection.query(sql, timeout: timeout))?.column(0))
    }

    /// Values of `field` beginning with `prefix`, for TAB.
    public func completeValues(of field: String, prefix: String, limit: Int = 50, timeout: Double = 1) -> [String] {
        guard let sql = try? builder.values(of: field, startingWith: prefix, limit: limit) else { return [] }
        return sortedCandidates((try? connection.query(sql, timeout: timeout))?.column(0))
    }

    /// How many rows of `query` have each value of `field` starting with `prefix`, most
    /// first, at most `limit` (`QueryBuilder.valueCounts`); `timeout` stops it sooner.
    public func valueCounts(_ query: TableQuery, of field: String, prefix: String, limit: Int, timeout: Double? = nil,
                            cancellation: Cancellation = .never) throws -> [ValueCount] {
        let result = try connection.query(builder.valueCounts(query, field: field, prefix: prefix, limit: limit),
                                          cancellation: cancellation, timeout: timeout)
        return (0..<result.rowCount).compactMap { row in
            result.value(row, 0).map { ValueCount($0, count: Int(result.value(row, 1) ?? "0") ?? 0) }
        }
    }

    private func sortedCandidates(_ values: [String?]?) -> [String] {
        (values ?? []).compactMap { $0 }.sorted { Folding.fold($0) < Folding.fold($1) }
    }

    /// Every row of the query, in order, `batch` rows at a time through a cursor in one
    /// read-only transaction, each batch as a small dataset: memory stays bounded whatever
    /// the table's size. Returns the rows read.
    @discardableResult
    public func export(_ query: TableQuery = TableQuery(), computed: [String] = [], batch: Int = 1000, cancellation: Cancellation = .never,
                       _ body: (Dataset) throws -> Void) throws -> Int {
        let (rows, columns) = try builder.rows(query, computed: computed)
        return try connection.session(cancellation: cancellation) { session in
            try session.query("BEGIN READ ONLY", cancellation: cancellation)
            do {
                try session.query(SQL("DECLARE almanac_export NO SCROLL CURSOR FOR ") + rows, cancellation: cancellation)
                var total = 0
                while true {
                    let started = Date()
                    let fetched = try session.query(SQL("FETCH FORWARD \(max(1, batch)) FROM almanac_export"), cancellation: cancellation)
                    if fetched.rowCount == 0 { break }
                    total += fetched.rowCount
                    let extras = columns.isEmpty ? ModelExtras() : ModelExtras(ComputedColumns.read(fetched, first: 1, specs: columns))
                    try body(try RowDocument.dataset(fetched, name: name, layout: schema.layout, source: source, started: started, extras: extras))
                }
                try session.query("COMMIT", cancellation: cancellation)
                return total
            } catch {
                if session.isUsable { _ = try? session.query("ROLLBACK", timeout: PostgresConnection.rollbackTimeout) }
                throw error
            }
        }
    }

    /// Checks that `field` names a column, or a path into a JSON column (`info.address.city`);
    /// throws the same unknown-field error as a filter on it would.
    public func checkField(_ field: String) throws { _ = try FieldReference.resolve(field, in: schema) }

    // MARK: - The SQL, for tests and benchmarks (psql runs the same statements)

    public func countSQL(_ query: TableQuery = TableQuery()) throws -> SQL { try builder.count(query) }

    public func pageSQL(_ query: TableQuery = TableQuery(), offset: Int = 0, limit: Int, after: [String?]? = nil) throws -> SQL {
        try builder.page(query, offset: offset, limit: limit, after: after).sql
    }

    public func groupSQL(_ query: TableQuery = TableQuery(), by spec: GroupSpec, limit: Int? = nil) throws -> SQL {
        try builder.group(query, spec: spec, limit: limit)
    }
}

/// A page of rows, and each row's primary key (for continuing after the last one).
public struct RowPage: Sendable {
    public let rows: Dataset
    public let keys: [[String?]]

    public var count: Int { rows.count }
    /// The key to continue after, nil without a primary key or an empty page.
    public var lastKey: [String?]? { keys.last.flatMap { $0.isEmpty ? nil : $0 } }
}

/// One field of a table for `fields`: a column, or a key of a JSON column's objects.
public struct FieldSummary: Sendable, Equatable {
    /// `population`, `info.address`.
    public let path: String
    /// The values' type in memory's words (`number (as text)`, `list of text`: `FieldReadings`).
    public let type: String
    /// The column's type as the catalog names it, or `json` below a JSON column.
    public let stored: String
    /// Rows with a value.
    public let count: Int
    public let example: String?
}

/// What `show` found.
public struct Found: Sendable {
    public enum Match: Sendable { case identity, name, otherName, namePrefix, none }
    public let rows: Dataset
    public let total: Int
    public let match: Match
    /// In a table without a key, when several rows were found: each row's number in the
    /// table's own order (as a dataset in memory numbers its records); else empty.
    public var places: [Int?] = []
}

extension PostgresTable: AttachedTable {
    /// `127.0.0.1:5432/shop, table public.sales` (a view says view).
    public var location: String { "\(endpoint), \(schema.kind.noun) \(schema.name)" }
    public var shownSource: String { url.shown }
    public var system: String { "PostgreSQL" }
    public var columnCount: Int { schema.columns.count }
    public var estimatedRows: Int { schema.estimatedRows }

    public func results() -> any ResultsSource { PostgresResults(table: self) }

    public func link(to catalog: Catalog) { schema.links.attach(to: catalog, as: name, endpoint: endpoint) }

    public func reattached(cancellation: Cancellation) throws -> any AttachedTable {
        try Self.attach(name: name, url: url, settings: connection.settings, cancellation: cancellation)
    }
}
