/// A dataset that stays where it lives — a table in a database — attached by name instead of
/// loaded: nothing of its rows is in memory, and every command asks the database.
///
/// The catalog knows it as it knows a loaded dataset (by name, in `datasets`, for `use`); the
/// commands ask its `results()`, which its engine answers (AlmanacPostgres).
public protocol AttachedTable: AnyObject, Sendable {
    /// The dataset's name in almanac.
    var name: String { get }
    /// Where the rows live, for `datasets` and `about`: the server, the database and the
    /// table, never a password (`127.0.0.1:5432/shop, table public.sales`).
    var location: String { get }
    /// What it was attached from, with any password replaced.
    var shownSource: String { get }
    /// The kind of place, for people: `PostgreSQL`.
    var system: String { get }
    var columnCount: Int { get }
    /// The planner's estimate of its rows; 0 when unknown.
    var estimatedRows: Int { get }

    /// Every row of the table, as results commands shape.
    func results() -> any ResultsSource
    /// The rows counted when the database can within `timeout` seconds (for `datasets`, which
    /// must stay quick), else the estimate; nil when neither is known.
    func quickCount(timeout: Double, cancellation: Cancellation) -> (count: Int, exact: Bool)?
    /// The same table attached again: its catalog read anew, on a new connection.
    func reattached(cancellation: Cancellation) throws -> any AttachedTable
    /// Reads the links of `catalog` (held weakly), which paths from the table may cross.
    func link(to catalog: Catalog)
}

extension AttachedTable {
    public func link(to catalog: Catalog) {}
}

/// An engine for tables that live elsewhere, known by the URLs it takes (`postgresql://…`):
/// the shell attaches tables and exports results through it, never naming the engine.
public protocol TableEngine: Sendable {
    /// Whether `text` is a URL of this engine.
    func recognizes(_ text: String) -> Bool
    /// The URL as it may be shown: its password replaced.
    func shown(_ text: String) throws -> String
    /// The table's own name, from the URL (a dataset name is suggested from it).
    func tableName(in text: String) throws -> String
    /// Attaches the table the URL names, as `name`.
    func attach(_ text: String, as name: String, cancellation: Cancellation) throws -> any AttachedTable
    /// Writes `results` into a new table at the URL (replacing one only when `replace`);
    /// returns the rows written.
    func write(_ results: any ResultsSource, to text: String, replace: Bool, cancellation: Cancellation) throws -> Int
}
