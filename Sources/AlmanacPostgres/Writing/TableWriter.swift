import AlmanacCore
import Foundation

/// `export postgresql://…?table=NEW`: records into a new table, in one transaction (`COPY …
/// FROM STDIN`): the table appears whole or not at all. An existing table is refused unless
/// `replace` (`--force`) is given, and then dropped in the same transaction.
///
/// Columns are the records' top-level keys, in the order they first appear. A key holding
/// only text is `text`; only whole numbers `bigint`; only numbers `numeric` (exactly the
/// literal); only booleans `boolean`; lists of one kind of scalar arrays of it; anything
/// else — objects, nested or mixed lists, keys whose values differ in kind — `jsonb`.
public enum TableWriter {
    /// Records in memory (the current results of any dataset), typed from their values.
    public static func write(_ results: ResultSet, to url: PostgresURL, replace: Bool = false,
                             cancellation: Cancellation = .never) throws -> Int {
        let records = results.items.map { (document: results.datasets[$0.dataset].document, node: results.datasets[$0.dataset].records[$0.row]) }
        let columns = ColumnPlan.columns(of: records)
        // The records of one dataset keep its key, declared unique: show and near find a row by
        // it, and the rows keep the order they were written in (a primary key would list them
        // in its own order, not the dataset's).
        let owners = Set(results.items.map(\.dataset))
        let key = owners.count == 1 ? owners.first.flatMap { results.datasets[$0].keyField } : nil
        return try write(columns: columns, key: key.map { .unique($0) }, to: url, replace: replace, cancellation: cancellation) { emit in
            try emit(records)
        }
    }

    /// The results of a table, read through a cursor a batch at a time into the new table: the
    /// columns keep their types, and memory stays bounded whatever the table's size.
    public static func write(_ source: PostgresTable, query: TableQuery = TableQuery(), to url: PostgresURL, replace: Bool = false,
                             cancellation: Cancellation = .never) throws -> Int {
        let columns = source.schema.columns.map(ColumnPlan.init(copying:))
        let schema = source.schema
        let key: TableKey? = !schema.primaryKey.isEmpty ? .primary(schema.primaryKey.map { schema.columns[$0].name })
            : schema.uniqueKey.map { .unique(schema.columns[$0].name) }
        return try write(columns: columns, key: key, to: url, replace: replace, reading: source, cancellation: cancellation) { emit in
            try source.export(query, cancellation: cancellation) { batch in
                try emit(batch.records.map { (document: batch.document, node: $0) })
            }
        }
    }

    /// Creates the table and copies in what `produce` emits, in one transaction; declares `key`
    /// when the rows allow it.
    private static func write(columns: [ColumnPlan], key: TableKey?, to url: PostgresURL, replace: Bool, reading source: PostgresTable? = nil,
                              cancellation: Cancellation,
                              produce: (_ emit: ([(document: JSONDocument, node: Int)]) throws -> Void) throws -> Void) throws -> Int {
        guard let table = url.table else { throw PostgresError.badURL("which table? add ?table=NEW to \(url.shown)") }
        guard !columns.isEmpty else { throw PostgresError.invalid("the results have no fields to write") }
        let connection = try PostgresConnection(url: url, settings: .init(readOnly: false))
        defer { connection.close() }
        // Opened here, where Ctrl-C is watched: quoting names would open it without.
        try connection.open(cancellation: cancellation)
        // Unquoted names fold to lower case, as PostgreSQL reads them (and as attaching does).
        let schemaName = table.schema.map { table.schemaFoldsCase ? $0.lowercased() : $0 }
        let quotedTable = try (schemaName.map { try connection.quote($0) + "." } ?? "")
            + connection.quote(table.foldsCase ? table.name.lowercased() : table.name)
        try WriteTarget.checkLengths(table: table, columns: columns.map(\.name), on: connection, cancellation: cancellation)
        // The table being read, however the URL reaches its server, is never dropped under its own read.
        if let source, let destination = try WriteTarget.identity(of: quotedTable, on: connection, cancellation: cancellation),
           try WriteTarget.identity(of: source.schema.quotedName, on: source.connection, cancellation: cancellation) == destination {
            throw PostgresError.invalid("'\(table)' is the table being read: export it under another name")
        }
        let quotedColumns = try columns.map { try connection.quote($0.name) }
        return try connection.session(cancellation: cancellation) { session in
            try session.query("BEGIN", cancellation: cancellation)
            do {
                var exists = SQL("SELECT to_regclass(")
                exists.bind(quotedTable)
                exists.append(") IS NOT NULL")
                if try session.query(exists, cancellation: cancellation).scalar == "t" {
                    guard replace else { throw PostgresError.tableExists(table.description) }
                    try session.query(SQL("DROP TABLE \(quotedTable)"), cancellation: cancellation)
                }
                let definitions = zip(quotedColumns, columns).map { "\($0) \($1.type.sql)" }
                try session.query(SQL("CREATE TABLE \(quotedTable) (\(definitions.joined(separator: ", ")))"), cancellation: cancellation)
                let copy = SQL("COPY \(quotedTable) (\(quotedColumns.joined(separator: ", "))) FROM STDIN")
                let copied = try session.copyIn(copy, cancellation: cancellation) { sendNow in
                    var line: [UInt8] = []
                    var buffer: [UInt8] = []
                    // `produce` calls back while `copyIn` runs, never later.
                    try withoutActuallyEscaping(sendNow) { send in
                        try produce { records in
                            for record in records {
                                line.removeAll(keepingCapacity: true)
                                CopyText.row(record.document, record.node, columns: columns, into: &line)
                                buffer.append(contentsOf: line)
                                if buffer.count >= 1 << 16 {
                                    try buffer.withUnsafeBytes { try send($0) }
                                    buffer.removeAll(keepingCapacity: true)
                                }
                            }
                        }
                        if !buffer.isEmpty { try buffer.withUnsafeBytes { try send($0) } }
                    }
                }
                if let key { try declare(key, of: columns, quoted: quotedColumns, on: quotedTable, in: session, cancellation: cancellation) }
                try session.query("COMMIT", cancellation: cancellation)
                return copied
            } catch {
                // Briefly: a server that stopped answering gets no more of the person's time.
                if session.isUsable { _ = try? session.query("ROLLBACK", timeout: PostgresConnection.rollbackTimeout) }
                throw error
            }
        }
    }
}

/// The key a new table gets: a table's primary key copied, or a dataset's key declared unique.
enum TableKey {
    case primary([String])
    case unique(String)

    var columns: [String] {
        switch self {
        case let .primary(columns): columns
        case let .unique(column): [column]
        }
    }
}

extension TableWriter {
    /// `key` on the new table (so show, near and why tell its rows apart as they do the
    /// dataset's), when its columns are scalars and the rows written hold each key once;
    /// else, as the database refuses it, the table is written without one.
    /// (`names`: the columns' names quoted before the session began, which holds the connection.)
    fileprivate static func declare(_ key: TableKey, of columns: [ColumnPlan], quoted names: [String], on quotedTable: String,
                                    in session: PostgresConnection.Session, cancellation: Cancellation) throws {
        let quotedByName = Dictionary(zip(columns, names).filter { !$0.0.type.isComposite }.map { ($0.0.name, $0.1) },
                                      uniquingKeysWith: { first, _ in first })
        let keyColumns = key.columns.compactMap { quotedByName[$0] }
        guard !keyColumns.isEmpty, keyColumns.count == key.columns.count else { return }
        let constraint = if case .primary = key { "PRIMARY KEY" } else { "UNIQUE" }
        try session.query("SAVEPOINT almanac_key", cancellation: cancellation)
        do {
            try session.query(SQL("ALTER TABLE \(quotedTable) ADD \(constraint) (\(keyColumns.joined(separator: ", ")))"), cancellation: cancellation)
            try session.query("RELEASE SAVEPOINT almanac_key", cancellation: cancellation)
        } catch PostgresError.server {
            // A key repeated (or missing) in these rows: they are written, without a key.
            try session.query("ROLLBACK TO SAVEPOINT almanac_key", cancellation: cancellation)
        }
    }
}

/// The columns of a new table, from the records' keys and values.
struct ColumnPlan {
    indirect enum ColumnType: Equatable {
        case text, bigint, numeric, boolean, jsonb
        case array(ColumnType)
        /// A table's column copied: its type as the catalog names it (`numeric(6,3)`, `date`),
        /// its values written as their text.
        case named(String)

        /// JSON and arrays: no key is declared on them.
        var isComposite: Bool {
            switch self {
            case .jsonb, .array: true
            case let .named(name): name == "json"
            default: false
            }
        }

        var sql: String {
            switch self {
            case .text: "text"
            case .bigint: "bigint"
            case .numeric: "numeric"
            case .boolean: "boolean"
            case .jsonb: "jsonb"
            case let .array(element): element.sql + "[]"
            case let .named(name): name
            }
        }
    }

    var name: String
    var type: ColumnType

    init(name: String, type: ColumnType) {
        self.name = name
        self.type = type
    }

    /// A table's column as it is: JSON stays JSON, arrays arrays, anything else its own type.
    init(copying column: TableSchema.Column) {
        name = column.name
        switch (column.kind, column.isArray) {
        case (.json, false): type = column.typeName == "json" ? .named("json") : .jsonb
        case (_, true): type = .array(.named(String(column.typeName.dropLast(2))))
        default: type = .named(column.typeName)
        }
    }

    /// What the values of one key were seen to be.
    private struct Seen {
        var strings = false, integers = false, decimals = false, booleans = false, objects = false
        var lists = false, listStrings = false, listIntegers = false, listDecimals = false, listBooleans = false, listOthers = false

        var scalarKinds: Int { [strings, integers || decimals, booleans, objects].filter { $0 }.count }

        var type: ColumnType {
            if lists {
                // A key that is sometimes a list and sometimes not keeps its values' shapes in JSON.
                if scalarKinds > 0 || listOthers { return .jsonb }
                let kinds = [listStrings, listIntegers || listDecimals, listBooleans].filter { $0 }.count
                if kinds > 1 { return .jsonb }
                if listIntegers && !listDecimals { return .array(.bigint) }
                if listIntegers || listDecimals { return .array(.numeric) }
                if listBooleans { return .array(.boolean) }
                return .array(.text)
            }
            if scalarKinds > 1 || objects { return .jsonb }
            if integers && !decimals { return .bigint }
            if integers || decimals { return .numeric }
            if booleans { return .boolean }
            return .text
        }
    }

    static func columns(of records: [(document: JSONDocument, node: Int)]) -> [ColumnPlan] {
        var order: [String] = []
        var seen: [String: Seen] = [:]
        for record in records where record.document.kind(at: record.node) == .object {
            let document = record.document
            for member in document.members(of: record.node) {
                let key = document.string(at: member.key)
                if seen[key] == nil { order.append(key); seen[key] = Seen() }
                note(document, member.value, into: &seen[key]!)
            }
        }
        return order.map { ColumnPlan(name: $0.isEmpty ? "_" : $0, type: seen[$0]!.type) }
    }

    private static func note(_ document: JSONDocument, _ node: Int, into seen: inout Seen) {
        switch document.kind(at: node) {
        case .string: seen.strings = true
        case .number: if CopyText.isInteger(document, node) { seen.integers = true } else { seen.decimals = true }
        case .true, .false: seen.booleans = true
        case .null: break
        case .object: seen.objects = true
        case .array:
            seen.lists = true
            for element in document.elements(of: node) {
                switch document.kind(at: element) {
                case .string: seen.listStrings = true
                case .number: if CopyText.isInteger(document, element) { seen.listIntegers = true } else { seen.listDecimals = true }
                case .true, .false: seen.listBooleans = true
                case .null: break
                case .array, .object: seen.listOthers = true
                }
            }
        }
    }
}

/// Rows in COPY's text format: tab-separated, `\N` for NULL, backslash escapes.
enum CopyText {
    static func row(_ document: JSONDocument, _ node: Int, columns: [ColumnPlan], into line: inout [UInt8]) {
        for (index, column) in columns.enumerated() {
            if index > 0 { line.append(0x09) }
            let key = column.name == "_" ? "" : column.name
            guard let value = document.member(key, of: node), document.kind(at: value) != .null else {
                line.append(contentsOf: Array("\\N".utf8))
                continue
            }
            field(document, value, type: column.type, into: &line)
        }
        line.append(0x0A)
    }

    private static func field(_ document: JSONDocument, _ node: Int, type: ColumnPlan.ColumnType, into line: inout [UInt8]) {
        switch type {
        case .jsonb, .named("json"):
            escape(Array(JSONWriter.string(document.value(at: node)).utf8), into: &line)
        case .array(let element):
            var literal: [UInt8] = [UInt8(ascii: "{")]
            for (position, item) in document.elements(of: node).enumerated() {
                if position > 0 { literal.append(UInt8(ascii: ",")) }
                switch document.kind(at: item) {
                case .null: literal.append(contentsOf: Array("NULL".utf8))
                case .string:
                    literal.append(UInt8(ascii: "\""))
                    for byte in document.arena[document.textRange(at: item)] {
                        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                        literal.append(byte)
                    }
                    literal.append(UInt8(ascii: "\""))
                default:
                    scalar(document, item, type: element, into: &literal)
                }
            }
            literal.append(UInt8(ascii: "}"))
            escape(literal, into: &line)
        default:
            var text: [UInt8] = []
            scalar(document, node, type: type, into: &text)
            escape(text, into: &line)
        }
    }

    private static func scalar(_ document: JSONDocument, _ node: Int, type: ColumnPlan.ColumnType, into text: inout [UInt8]) {
        switch document.kind(at: node) {
        case .true: text.append(UInt8(ascii: "t"))
        case .false: text.append(UInt8(ascii: "f"))
        case .string, .number: text.append(contentsOf: document.arena[document.textRange(at: node)])
        default: text.append(contentsOf: Array(JSONWriter.string(document.value(at: node)).utf8))
        }
    }

    /// A number literal of digits only that fits a bigint.
    static func isInteger(_ document: JSONDocument, _ node: Int) -> Bool {
        let range = document.textRange(at: node)
        guard range.count <= 18 else { return false }
        for (offset, byte) in document.arena[range].enumerated() {
            if byte == UInt8(ascii: "-"), offset == 0 { continue }
            if byte < UInt8(ascii: "0") || byte > UInt8(ascii: "9") { return false }
        }
        return true
    }

    private static func escape(_ bytes: [UInt8], into line: inout [UInt8]) {
        for byte in bytes {
            switch byte {
            case 0x5C: line.append(0x5C); line.append(0x5C)
            case 0x09: line.append(0x5C); line.append(UInt8(ascii: "t"))
            case 0x0A: line.append(0x5C); line.append(UInt8(ascii: "n"))
            case 0x0D: line.append(0x5C); line.append(UInt8(ascii: "r"))
            default: line.append(byte)
            }
        }
    }
}
