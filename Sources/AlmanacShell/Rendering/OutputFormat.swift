/// How results are printed: a table for people, or a machine format in the data's own schema.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table, json, csv, tsv, ndjson

    /// Machine formats carry no colour, footers or progress.
    public var isMachineReadable: Bool { self != .table }
}
