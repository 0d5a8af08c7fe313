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
        Records are written whole, in the source schema, whatever the columns shown. An existing \
        file is replaced only with --force; the file appears whole or not at all. A .geojson file holds the results as one GeoJSON FeatureCollection, what map prints under --format json.
        """
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        request.arguments.isEmpty ? CompletionSources.files(request) : request.matching(["--force"])
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        var words = arguments.words.map(\.text)
        let force = words.contains("--force")
        words.removeAll { $0 == "--force" }
        guard words.count == 1 else { throw arguments.usageError(words.isEmpty ? "missing PATH" : "one PATH only") }
        var path = words[0]
        if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] { path = home + path.dropFirst() }
        let results = try session.currentResults()
        let text: String
        if path.lowercased().hasSuffix(".geojson") {
            text = try GeoJSONWriter.featureCollection(results, outlines: MapCommand.outlines(in: session).0,
                                                       cancellation: session.cancellation) + "\n"
        } else if let format = OutputFormat.forFile(path) {
            // Whole records, whatever the columns shown; the same renderer as the screen's.
            let sink = TextSink()
            var table = RecordListing.table(results, range: 0..<results.count, fields: [])
            table.firstNumber = nil
            format.renderer.render(CommandResult(table), to: sink, context: .file(format))
            text = sink.text
        } else {
            throw arguments.usageError("the file's extension says the format: .json, .ndjson, .csv, .tsv or .geojson")
        }
        try AtomicFile.write(Array(text.utf8), to: path, overwrite: force)
        guard session.isInteractive || session.verbose else { return nil }
        let written = ResultTable(columns: [ResultColumn("records", .integer), ResultColumn("path")],
                                  rows: [[.integer(results.count), .text(path)]])
        let line = "wrote \(results.count.grouped) record\(results.count == 1 ? "" : "s") to \(SafeText.escape(path))"
        return CommandResult(written, shape: .object, prose: .lines([line]))
    }
}

import Foundation
