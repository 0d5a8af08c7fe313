/// A dataset that stays where it lives — a table in a database — attached by name instead of
/// loaded: nothing of its rows is in memory, and every command asks the database.
///
/// The catalog knows it as it knows a loaded dataset (by name, in `datasets`, for `use`); the
/// shell asks the database behind it (AlmanacPostgres).
public protocol AttachedTable: AnyObject, Sendable {
    /// Where the rows live, for `datasets` and `about`: the server, the database and the
    /// table, never a password (`127.0.0.1:5432/shop, table public.sales`).
    var location: String { get }
    /// What it was attached from, with any password replaced.
    var shownSource: String { get }
    /// The kind of place, for people: `PostgreSQL`.
    var system: String { get }
}
