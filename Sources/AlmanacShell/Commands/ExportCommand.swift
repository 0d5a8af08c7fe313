import AlmanacCore

/// `export PATH [--force]` writes the current results in the source schema, as JSON, NDJSON,
/// CSV or TSV by the file's extension, whole or not at all.
public enum ExportCommand: Command {
    public static let spec = CommandSpec(
        name: "export",
        summary: "Write the current results to a file (.json, .ndjson, .csv, .tsv, .geojson)",
        usage: "export PATH [--force]",
        examples: ["export europe.csv", "export results.json --force", "export stations.ndjson", "export stations.geojson"],
        discussion: """
        An existing file is replaced only with --force; the file appears whole or not at all. A \
        .geojson file holds the results as one GeoJSON FeatureCollection, what map prints under --format json.
        """
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
        if lowered.hasSuffix(".geojson") {
            let results = try session.currentResults()
            let text = try GeoJSONWriter.featureCollection(results, outlines: MapCommand.outlines(in: session).0,
                                                           cancellation: session.cancellation) + "\n"
            try write(text, records: results.count, to: path, overwrite: force, in: session)
            return
        } else if lowered.hasSuffix(".json") {
            format = .json
        } else if lowered.hasSuffix(".ndjson") || lowered.hasSuffix(".jsonl") {
            format = .ndjson
        } else if lowered.hasSuffix(".csv") {
            format = .csv
        } else if lowered.hasSuffix(".tsv") {
            format = .tsv
        } else {
            throw arguments.usageError("the file's extension says the format: .json, .ndjson, .csv, .tsv or .geojson")
        }
        let results = try session.currentResults()
        var text = RecordWriter.render(results, items: results.items, format: format)
        if !text.isEmpty { text += "\n" }
        try write(text, records: results.count, to: path, overwrite: force, in: session)
    }

    private static func write(_ text: String, records: Int, to path: String, overwrite: Bool, in session: Session) throws {
        try AtomicFile.write(Array(text.utf8), to: path, overwrite: overwrite)
        if session.isInteractive || session.verbose {
            session.output.print("wrote \(records.grouped) records to \(SafeText.escape(path))")
        }
    }
}

import Foundation
