import AlmanacCore

/// A describe's, histogram's or path's table while it is the last answer shown.
public struct ShownSummary {
    public let table: ResultTable
    /// What a row of it is (`field`, `bin`, `step`), for export's report.
    public let rows: String
    /// The whole records behind the rows when they are not the results: a path's countries,
    /// step by step. `export FILE all`, a .geojson file and a table export write these.
    public let records: ResultSet?

    public init(_ table: ResultTable, rows: String, records: ResultSet? = nil) {
        self.table = table
        self.rows = rows
        self.records = records
    }
}
