/// A way of writing results, as a row of facts (sqlite's `aModeInfo[]`): what kind of writer,
/// the separator and quoting of a delimited format, whether a header comes first, which files it
/// names. One piece of code reads the facts; a new format is one row (and, when no writer
/// fits, one renderer).
public struct OutputFormat: Sendable, Hashable, CustomStringConvertible {
    /// The renderer a format's rows choose.
    public enum Writer: Sendable {
        /// People's formats: every row measured before the first is written.
        case table, expanded
        /// Programs' formats: a header, each row as it comes, a footer (`RowRenderer`).
        case json, ndjson, delimited, markdown
    }

    /// How a delimited format keeps its separator or a line break inside a cell.
    public enum Quoting: Sendable {
        /// RFC 4180: the cell in double quotes, a quote doubled.
        case doubleQuotes
        /// `\t`, `\n`, `\r` and `\\`, as PostgreSQL's text COPY reads them.
        case backslashes
    }

    public let name: String
    public let writer: Writer
    /// Files `export` writes in this format, by extension; none: not an export format.
    public let fileExtensions: [String]
    /// A delimited format's separator between cells.
    public let separator: String
    public let quoting: Quoting
    /// Whether a line of column names comes first.
    public let header: Bool

    public init(_ name: String, _ writer: Writer, fileExtensions: [String] = [], separator: String = ",",
                quoting: Quoting = .doubleQuotes, header: Bool = false) {
        self.name = name
        self.writer = writer
        self.fileExtensions = fileExtensions
        self.separator = separator
        self.quoting = quoting
        self.header = header
    }

    /// Every format, in the order `set` lists them.
    public static let all: [OutputFormat] = [
        OutputFormat("table", .table),
        OutputFormat("expanded", .expanded),
        OutputFormat("json", .json, fileExtensions: ["json"]),
        OutputFormat("ndjson", .ndjson, fileExtensions: ["ndjson", "jsonl"]),
        OutputFormat("csv", .delimited, fileExtensions: ["csv"], separator: ",", quoting: .doubleQuotes, header: true),
        OutputFormat("tsv", .delimited, fileExtensions: ["tsv"], separator: "\t", quoting: .backslashes, header: true),
        OutputFormat("markdown", .markdown, fileExtensions: ["md"], header: true),
    ]

    /// Machine formats carry no colour, footers, paging or progress, and are never cut to a width.
    public var isMachineReadable: Bool { writer != .table && writer != .expanded }

    /// Whether rows are written as they come (so an export reads a table a batch at a time).
    public var streams: Bool { isMachineReadable }

    public static func named(_ name: String, among formats: [OutputFormat] = all) -> OutputFormat? {
        formats.first { $0.name == name.lowercased() }
    }

    /// The format `export` writes to `path`, by its extension.
    public static func forFile(_ path: String, among formats: [OutputFormat] = all) -> OutputFormat? {
        let lowered = path.lowercased()
        return formats.first { format in format.fileExtensions.contains { lowered.hasSuffix("." + $0) } }
    }

    public static var table: OutputFormat { named("table")! }
    public static var json: OutputFormat { named("json")! }

    /// The renderer of whole results in this format.
    var renderer: any ResultRenderer.Type {
        switch writer {
        case .table: TableRenderer.self
        case .expanded: ExpandedRenderer.self
        case .json: JSONRenderer.self
        case .ndjson, .delimited, .markdown: StreamedRenderer.self
        }
    }

    /// A renderer of this format's rows, one at a time, into `sink`.
    func rowRenderer(to sink: any LineSink) -> (any RowRenderer)? {
        switch writer {
        case .table, .expanded: nil
        case .json: JSONRows(sink: sink)
        case .ndjson: NDJSONRows(sink: sink)
        case .delimited: DelimitedRows(format: self, sink: sink)
        case .markdown: MarkdownRows(sink: sink)
        }
    }

    public var description: String { name }
    public static func == (left: OutputFormat, right: OutputFormat) -> Bool { left.name == right.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
