import AlmanacCore

/// Writes a command's result in one format, a line (or one bounded chunk) at a time, so a
/// large result streams out and an interrupted one stops between lines.
protocol ResultRenderer {
    static func render(_ result: CommandResult, to sink: any LineSink, context: RenderContext)
}

/// Where rendered lines go: the shell's output, or a file being exported.
public protocol LineSink: AnyObject {
    /// One line, or several joined by line breaks, without the final line break.
    func line(_ text: String)
    /// Whether the lines stop here (Ctrl-C, a termination signal): the rest would be dropped,
    /// so a renderer stops making them.
    var isCut: Bool { get }
}

extension Output: LineSink {
    public func line(_ text: String) { print(text) }
}

/// Collects lines in memory (for a file written whole), until `cancellation` fires.
final class TextSink: LineSink {
    private(set) var text = ""
    private(set) var lines = 0
    let cancellation: Cancellation

    init(cancellation: Cancellation = .never) { self.cancellation = cancellation }

    var isCut: Bool { cancellation.isCancelled }

    func line(_ line: String) {
        guard !isCut else { return }
        text += line
        text += "\n"
        lines += 1
    }
}

/// What a renderer needs to know about where the text goes.
struct RenderContext {
    /// The terminal's width: people's formats fit it; nil into a pipe or a file (nothing is cut).
    var width: Int?
    var color: Bool
    var expanded: ExpandedMode = .off
    /// The format asked for (csv and tsv share a renderer).
    var format: OutputFormat

    static func file(_ format: OutputFormat) -> RenderContext { RenderContext(width: nil, color: false, format: format) }
}

/// `set expanded`: one line per field for each record (psql's `\x`); auto when a table is too wide.
public enum ExpandedMode: String, Sendable, CaseIterable {
    case off, on, auto
}
