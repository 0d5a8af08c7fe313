import AlmanacCore

/// PostgreSQL as almanac's engine for tables that stay in a database: `postgresql://` and
/// `postgres://` URLs attach tables, and results are written into new tables.
public struct PostgresEngine: TableEngine {
    public init() {}

    public func recognizes(_ text: String) -> Bool { PostgresURL.isPostgres(text) }

    public func shown(_ text: String) throws -> String { try PostgresURL(text).shown }

    public func tableName(in text: String) throws -> String {
        let url = try PostgresURL(text)
        guard let table = url.table else { throw PostgresError.badURL("which table? add ?table=TABLE to \(url.shown)") }
        return table.name
    }

    public func attach(_ text: String, as name: String, cancellation: Cancellation) throws -> any AttachedTable {
        try PostgresTable.attach(name: name, url: try PostgresURL(text), cancellation: cancellation)
    }

    /// In one transaction (COPY). A table's results keep their columns' types.
    public func write(_ results: any ResultsSource, to text: String, replace: Bool, cancellation: Cancellation) throws -> Int {
        let url = try PostgresURL(text)
        if let table = results as? PostgresResults {
            return try TableWriter.write(table.table, query: table.query, to: url, replace: replace, cancellation: cancellation)
        }
        guard let records = results.inMemory else {
            throw PostgresError.invalid("these results cannot be written into a table from here")
        }
        return try TableWriter.write(records, to: url, replace: replace, cancellation: cancellation)
    }
}
