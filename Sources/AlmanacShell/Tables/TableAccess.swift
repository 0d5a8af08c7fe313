import AlmanacCore
import AlmanacPostgres

/// The results of an attached table in use: the question asked so far (search, filters,
/// sort), which every command puts to the database; nothing of the table is held here.
public struct TableResults {
    public let table: PostgresTable
    public var query: TableQuery
    /// The rows the query matches, once counted (pages need it; the question changes it).
    var counted: Int?
    /// The last page shown, its size and its last row's key: the next page of the same size
    /// continues after that key (an index scan) rather than skipping rows (`OFFSET`), where the
    /// order allows it — and a row deleted behind the reader moves nothing into the gap.
    var shownPage: (number: Int, size: Int, lastKey: [String?]?)?

    init(table: PostgresTable, query: TableQuery = TableQuery()) {
        self.table = table
        self.query = query
    }

    /// How many rows the query matches, counted by the database once per question.
    mutating func count(in session: Session) throws -> Int {
        if let counted { return counted }
        let count = try table.count(query, cancellation: session.cancellation)
        counted = count
        return count
    }

    /// The same table asked another question.
    func asking(_ query: TableQuery) -> TableResults { TableResults(table: table, query: query) }
}

extension Session {
    /// The table in use and the question so far, when the dataset in use is an attached
    /// table (commands then run in its database); nil for in-memory datasets and `use all`,
    /// which spans only those.
    public func tableInUse() -> TableResults? {
        guard let name = currentName, name != "all", let table = catalog.table(name) as? PostgresTable else { return nil }
        if let current = tableResults, current.table === table { return current }
        return TableResults(table: table)
    }

    /// Why a command that reads every record into memory does not run on a table.
    func notForTables(_ command: String) -> ShellError {
        .invalid("\(command) reads every record into memory, and \(currentName ?? "this dataset") is a table in a database — "
            + "export it to a file and load that, or narrow it first and export FILE")
    }
}
