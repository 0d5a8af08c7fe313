import AlmanacCore

/// Checks on where an export writes, made on the destination's own connection before anything
/// is created: the server decides, not the URL's text.
enum WriteTarget {
    /// Which table of which database of which cluster: the cluster's `system_identifier` (its
    /// start time where pg_control_system is not granted), the database's oid and the table's
    /// oid. Equal whatever host spelling, socket or address reached the server.
    struct Identity: Equatable {
        var cluster: String
        var database: String
        var table: String
    }

    /// The identity of `quotedTable` on `connection`'s server; nil when no such table.
    static func identity(of quotedTable: String, on connection: PostgresConnection, cancellation: Cancellation) throws -> Identity? {
        let cluster: String
        if let system = try? connection.query("SELECT system_identifier::text FROM pg_control_system()", cancellation: cancellation).scalar {
            cluster = system
        } else {
            cluster = try connection.query("SELECT pg_postmaster_start_time()::text", cancellation: cancellation).scalar ?? ""
        }
        var sql = SQL("SELECT (SELECT oid FROM pg_database WHERE datname = current_database())::text, to_regclass(")
        sql.bind(quotedTable)
        sql.append(")::oid::text")
        let result = try connection.query(sql, cancellation: cancellation)
        guard let table = result.value(0, 1) else { return nil }
        return Identity(cluster: cluster, database: result.value(0, 0) ?? "", table: table)
    }

    /// Refuses names the server would cut (`max_identifier_length`, 63 bytes by default): a cut
    /// name is another table's — `--force` dropped the existing 63-character table — or two
    /// keys' one column.
    static func checkLengths(table: TableName, columns: [String], on connection: PostgresConnection, cancellation: Cancellation) throws {
        let limit = Int(try connection.query("SELECT current_setting('max_identifier_length')", cancellation: cancellation).scalar ?? "") ?? 63
        func check(_ name: String, _ what: String) throws {
            guard name.utf8.count > limit else { return }
            let shown = name.count > 40 ? name.prefix(40) + "…" : name
            throw PostgresError.invalid("the \(what) '\(shown)' is \(name.utf8.count) bytes, longer than this server's "
                + "\(limit)-byte names (max_identifier_length): PostgreSQL would cut it to another name")
        }
        try table.schema.map { try check($0, "schema") }
        try check(table.name, "table name")
        for column in columns { try check(column, "column name") }
    }
}
