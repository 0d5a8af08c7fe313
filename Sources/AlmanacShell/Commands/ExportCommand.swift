import AlmanacCore

/// `export PATH [--force]` writes the current results in the source schema, as JSON, NDJSON,
/// CSV or TSV by the file's extension, whole or not at all.
public enum ExportCommand: Command {
    public static let spec = CommandSpec(
        name: "export",
        summary: "Write the current results to a file (.json, .ndjson, .csv, .tsv)",
        usage: "export PATH [--force]",
        examples: ["export europe.csv", "export results.json --force", "export stations.ndjson"],
        discussion: "An existing file is replaced only with --force; the file appears whole or not at all."
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        request.arguments.isEmpty ? CompletionSources.files(request) : request.matching(["--force"])
    }

    public static func run(_ arguments: Arguments, in session: Session) throws {
        var words = arguments.words.map(\.text)
        let force = words.contains("--force")
        words.removeAll { $0 == "--force" }
        guard words.count == 1 else { throw arguments.usageError(words.isEmpty ? "missing PATH" : "one PATH only") }
        var path = words[0]
        if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] { path = home + path.dropFirst() }
        let lowered = path.lowercased()
        let format: OutputFormat
        if lowered.hasSuffix(".json") {
            format = .json
        } else if lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".jsonl") {
            format = .ndjson
        } else if lowered.hasSuffix(".csv") {
            format = .csv
        } else if lowered.hasSuffix(".tsv") {
            format = .tsv
        } else {
            throw arguments.usageError("the file's extension says the format: .json, .ndjson, .csv or .tsv")
        }
        let results = try session.currentResults()
        var text = RecordWriter.render(results, items: results.items, format: format)
        if !text.isEmpty { text += "\n" }
        try AtomicFile.write(Array(text.utf8), to: path, overwrite: force)
        if session.isInteractive || session.verbose {
            session.output.print("wrote \(results.count.grouped) records to \(SafeText.escape(path))")
        }
    }
}

import Foundation
