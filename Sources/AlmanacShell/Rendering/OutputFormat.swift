/// A way of writing results: a row of `OutputFormat.all`. A new format is one renderer and one row.
public struct OutputFormat: Sendable, Hashable, CustomStringConvertible {
    public let name: String
    /// Machine formats carry no colour, footers, paging or progress, and are never cut to a width.
    public let isMachineReadable: Bool
    /// Files `export` writes in this format, by extension; none: not an export format.
    public let fileExtensions: [String]
    let renderer: any ResultRenderer.Type

    /// Every format, in the order `set` lists them.
    public static let all: [OutputFormat] = [
        OutputFormat(name: "table", isMachineReadable: false, fileExtensions: [], renderer: TableRenderer.self),
        OutputFormat(name: "expanded", isMachineReadable: false, fileExtensions: [], renderer: ExpandedRenderer.self),
        OutputFormat(name: "json", isMachineReadable: true, fileExtensions: ["json"], renderer: JSONRenderer.self),
        OutputFormat(name: "ndjson", isMachineReadable: true, fileExtensions: ["ndjson", "jsonl"], renderer: NDJSONRenderer.self),
        OutputFormat(name: "csv", isMachineReadable: true, fileExtensions: ["csv"], renderer: DelimitedRenderer.self),
        OutputFormat(name: "tsv", isMachineReadable: true, fileExtensions: ["tsv"], renderer: DelimitedRenderer.self),
        OutputFormat(name: "markdown", isMachineReadable: true, fileExtensions: ["md"], renderer: MarkdownRenderer.self),
    ]

    public static func named(_ name: String) -> OutputFormat? { all.first { $0.name == name.lowercased() } }

    /// The format `export` writes to `path`, by its extension.
    public static func forFile(_ path: String) -> OutputFormat? {
        let lowered = path.lowercased()
        return all.first { format in format.fileExtensions.contains { lowered.hasSuffix("." + $0) } }
    }

    public static var table: OutputFormat { named("table")! }
    public static var json: OutputFormat { named("json")! }

    public var description: String { name }
    public static func == (left: OutputFormat, right: OutputFormat) -> Bool { left.name == right.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
