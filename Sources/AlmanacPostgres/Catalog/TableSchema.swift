import AlmanacCore

/// What the catalog says about a table or view: its columns and their types, its primary key,
/// the trigram indexes search can use, and how text is folded. Read once when the table is
/// attached; nothing of its rows is read.
public struct TableSchema: Sendable {
    public enum Kind: String, Sendable {
        case table = "r", view = "v", materializedView = "m", foreignTable = "f", partitionedTable = "p"

        public var noun: String {
            switch self {
            case .table, .partitionedTable: "table"
            case .view: "view"
            case .materializedView: "materialized view"
            case .foreignTable: "foreign table"
            }
        }
    }

    /// The table as the catalog spells it.
    public let name: TableName
    /// `"schema"."table"`, quoted by libpq.
    public let quotedName: String
    public let kind: Kind
    public let columns: [Column]
    /// Positions in `columns` of the primary key, in key order (empty when there is none).
    public let primaryKey: [Int]
    /// Without a primary key, the position of a column a unique index covers alone (an
    /// exported dataset's key): show finds a row by it.
    public let uniqueKey: Int?
    /// Positions of the columns a pg_trgm index covers.
    public let trigramIndexed: Set<Int>
    /// The field that names a row and the columns a listing shows, chosen as for any other
    /// generic dataset.
    public let layout: Layout
    /// How text compares (case and, with unaccent installed, accents ignored).
    public let folding: TextFolding
    /// The planner's estimate of the rows (0 when the table was never analysed).
    public let estimatedRows: Int
    /// The links paths from the table may cross (set when the table is attached to a catalog).
    public let links = TableLinks()

    public struct Column: Sendable, Equatable {
        public let name: String
        /// Quoted by libpq, for SQL.
        public let quoted: String
        /// `text`, `integer`, `numeric(10,2)`, `jsonb`, `text[]`.
        public let typeName: String
        public let kind: ValueKind
        /// An array of `kind` values.
        public let isArray: Bool
        public let notNull: Bool

        public var isNumeric: Bool { kind == .number && !isArray }
    }

    /// What a column's values are to almanac.
    public enum ValueKind: Sendable, Equatable {
        /// text, varchar, char, name, citext
        case text
        /// integers, floating point, numeric
        case number
        case boolean
        /// json or jsonb: nested values reached by dotted paths.
        case json
        /// Anything else (dates, uuid, network addresses…): compared as the text JSON gives it.
        case other
    }

    public func column(named name: String) -> Int? { columns.firstIndex { $0.name == name } }

    public var nameColumn: Int? { column(named: layout.nameField) }

    /// What orders rows when nothing else does: the primary key, else the physical order of
    /// a table's rows; a view has no order of its own.
    public var naturalOrder: [String] {
        if !primaryKey.isEmpty { return primaryKey.map { columns[$0].quoted } }
        switch kind {
        case .table, .materializedView: return ["ctid"]
        case .partitionedTable: return ["tableoid", "ctid"]
        case .view, .foreignTable: return []
        }
    }

    /// Reads the catalog for `table`. Names written without quotes are found as written, then
    /// lower-cased, as PostgreSQL folds them.
    public static func read(_ table: TableName, on connection: PostgresConnection, cancellation: Cancellation = .never) throws -> TableSchema {
        var find = SQL("""
            SELECT c.oid::text, n.nspname, c.relname, c.relkind::text, greatest(c.reltuples, 0)::bigint::text
            FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind IN ('r', 'v', 'm', 'f', 'p') AND c.relname IN (
            """)
        find.bind(table.name)
        find.append(", ")
        find.bind(table.foldsCase ? table.name.lowercased() : table.name)
        find.append(") AND CASE WHEN ")
        find.bind(table.schema)
        find.append(" IS NULL THEN pg_catalog.pg_table_is_visible(c.oid) ELSE n.nspname IN (")
        find.bind(table.schema)
        find.append(", ")
        find.bind(table.schemaFoldsCase ? table.schema?.lowercased() : table.schema)
        find.append(") END ORDER BY c.relname = ")
        find.bind(table.name)
        find.append(" DESC, n.nspname = ")
        find.bind(table.schema ?? "")
        find.append(" DESC LIMIT 1")
        let found = try connection.query(find, cancellation: cancellation)
        guard found.rowCount == 1, let oid = found.value(0, 0), let schema = found.value(0, 1), let relation = found.value(0, 2),
              let kind = found.value(0, 3).flatMap(Kind.init(rawValue:)) else {
            throw PostgresError.noSuchTable(table.description)
        }
        let estimated = Int(found.value(0, 4) ?? "0") ?? 0

        var columnQuery = SQL("""
            SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), t.typcategory::text,
                   coalesce(et.typcategory::text, ''), a.atttypid::text, coalesce(et.oid, 0)::text, a.attnotnull::text
            FROM pg_catalog.pg_attribute a
            JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
            LEFT JOIN pg_catalog.pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
            WHERE a.attrelid = 
            """)
        columnQuery.bind(oid, as: "oid")
        columnQuery.append(" AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum")
        let columnRows = try connection.query(columnQuery, cancellation: cancellation)
        var columns: [Column] = []
        for row in 0..<columnRows.rowCount {
            let name = columnRows.value(row, 0) ?? ""
            let category = columnRows.value(row, 2) ?? ""
            let isArray = category == "A"
            let kind = isArray
                ? Self.kind(category: columnRows.value(row, 3) ?? "", oid: UInt32(columnRows.value(row, 5) ?? "0") ?? 0)
                : Self.kind(category: category, oid: UInt32(columnRows.value(row, 4) ?? "0") ?? 0)
            columns.append(Column(name: name, quoted: try connection.quote(name), typeName: columnRows.value(row, 1) ?? "",
                                  kind: kind, isArray: isArray, notNull: columnRows.value(row, 6) == "t"))
        }

        var keyQuery = SQL("""
            SELECT a.attname FROM pg_catalog.pg_index i
            CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
            JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
            WHERE i.indisprimary AND i.indrelid = 
            """)
        keyQuery.bind(oid, as: "oid")
        keyQuery.append(" ORDER BY k.position")
        let primaryKey = try connection.query(keyQuery, cancellation: cancellation).column(0)
            .compactMap { name in columns.firstIndex { $0.name == name } }

        var trigramQuery = SQL("""
            SELECT a.attname FROM pg_catalog.pg_index i
            JOIN pg_catalog.pg_opclass o ON o.oid = i.indclass[0]
            JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
            WHERE o.opcname IN ('gin_trgm_ops', 'gist_trgm_ops') AND i.indpred IS NULL AND i.indrelid = 
            """)
        trigramQuery.bind(oid, as: "oid")
        let trigramIndexed = Set(try connection.query(trigramQuery, cancellation: cancellation).column(0)
            .compactMap { name in columns.firstIndex { $0.name == name } })

        let folding = try TextFolding.detect(on: connection, cancellation: cancellation)
        let quotedName = try connection.quote(schema) + "." + connection.quote(relation)
        let short = try shortTextColumns(columns, in: quotedName, on: connection, cancellation: cancellation)
        var layout = GenericModel.layout(keys: columns.enumerated().map { index, column in
            (column.name, column.kind == .text, short.contains(index) || column.kind != .text)
        })
        var uniqueKey: Int?
        if primaryKey.isEmpty {
            var uniqueQuery = SQL("""
                SELECT a.attname FROM pg_catalog.pg_index i
                JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                WHERE i.indisunique AND i.indnatts = 1 AND i.indpred IS NULL AND i.indexprs IS NULL AND i.indrelid = 
                """)
            uniqueQuery.bind(oid, as: "oid")
            uniqueQuery.append(" ORDER BY i.indexrelid LIMIT 1")
            uniqueKey = try connection.query(uniqueQuery, cancellation: cancellation).column(0)
                .compactMap { name in columns.firstIndex { $0.name == name } }.first
        }
        // Without a primary key, show finds a row by its unique column, else by an id/key/uuid
        // column, as a file's record by its field.
        if primaryKey.isEmpty {
            layout.identityField = uniqueKey.map { columns[$0].name }
                ?? RecordKey.conventionalField(among: columns.filter { !$0.isArray && $0.kind != .json }.map(\.name))
        }
        return TableSchema(name: TableName(schema: schema, name: relation), quotedName: quotedName, kind: kind,
                           columns: columns, primaryKey: primaryKey, uniqueKey: uniqueKey, trigramIndexed: trigramIndexed,
                           layout: layout, folding: folding, estimatedRows: estimated)
    }

    /// Text columns (and text arrays) whose values in the first rows are all short enough to
    /// be names (`GenericModel.shortTextLimit`), as the generic model decides for a file.
    static func shortTextColumns(_ columns: [Column], in table: String, on connection: PostgresConnection,
                                 cancellation: Cancellation) throws -> Set<Int> {
        let text = columns.indices.filter { columns[$0].kind == .text }
        guard !text.isEmpty else { return [] }
        let limit = GenericModel.shortTextLimit
        let tests = text.map { index -> String in
            let column = "s." + columns[index].quoted
            return columns[index].isArray
                ? "coalesce(bool_and(NOT EXISTS (SELECT 1 FROM unnest(\(column)) AS e(v) WHERE octet_length(v) > \(limit))), true)"
                : "coalesce(bool_and(octet_length(\(column)) <= \(limit)), true)"
        }
        let sample = "SELECT \(text.map { columns[$0].quoted }.joined(separator: ", ")) FROM \(table) LIMIT \(GenericModel.sampleSize)"
        let result = try connection.query(SQL("SELECT \(tests.joined(separator: ", ")) FROM (\(sample)) AS s"), cancellation: cancellation)
        return Set(text.enumerated().filter { result.value(0, $0.offset) == "t" }.map(\.element))
    }

    /// A column's kind from its type category and type.
    static func kind(category: String, oid: UInt32) -> ValueKind {
        switch oid {
        case 114, 3802: return .json // json, jsonb
        case 790: return .other // money: numeric category, but not a number's text
        default: break
        }
        switch category {
        case "S": return .text
        case "N": return .number
        case "B": return .boolean
        default: return .other
        }
    }
}

/// How text is folded in SQL so it compares as almanac compares it in memory (`Folding`,
/// Foundation's case- and diacritic-insensitive folding): lower case, then the Unicode
/// decomposition without its combining marks, recomposed, and the few case foldings lower()
/// does not do (`ß` → `ss`, final `ς` → `σ`…). Checked against Foundation for every Latin,
/// Greek, Cyrillic, Armenian, Hebrew, Arabic and kana character; all built-in and immutable
/// functions (an index on the expression can serve it), no extension needed. ASCII text
/// takes the short way (`lower`). Servers before PostgreSQL 13, or not in UTF-8, have no
/// `normalize`: there only case is ignored.
public struct TextFolding: Sendable, Equatable {
    public enum Method: Sendable, Equatable {
        /// Case and diacritics ignored, as in memory.
        case unicode
        /// Case only (`lower`).
        case caseOnly
    }

    public let method: Method

    public init(_ method: Method) { self.method = method }

    public static func detect(on connection: PostgresConnection, cancellation: Cancellation = .never) throws -> TextFolding {
        let unicode = try connection.query("""
            SELECT current_setting('server_version_num')::int >= 130000 AND current_setting('server_encoding') = 'UTF8'
            """, cancellation: cancellation).scalar == "t"
        return TextFolding(unicode ? .unicode : .caseOnly)
    }

    /// `expression` folded.
    public func fold(_ expression: SQL) -> SQL {
        let lowered = SQL("lower(") + expression + ")"
        guard method == .unicode else { return lowered }
        var sql = SQL("CASE WHEN octet_length(") + expression + ") = length(" + expression + ") THEN " + lowered
        sql.append(" ELSE replace(replace(translate(normalize(regexp_replace(normalize(")
        sql.append(lowered)
        sql.append(", NFD), '[\\u0300-\\u036f]', '', 'g'), NFC), 'µſςϐϑϕϖϰϱϵ', 'μsσβθφπκρε'), 'ß', 'ss'), 'ŉ', 'ʼn') END")
        return sql
    }

    public var ignoresAccents: Bool { method == .unicode }
}
