import AlmanacCore
import Foundation

/// `export PATH [all] [--force]` writes what the listing shows — the chosen columns, the groups
/// after `group` — as JSON, NDJSON, CSV or TSV by the file's extension, whole or not at all;
/// `all` writes whole records.
public enum ExportCommand: Command {
    static let path = Parameter("PATH", .text(.files, or: ["postgresql://…?table=NEW"]))
    static let all = Parameter.flag("all")
    static let force = Parameter.flag("--force")

    public static let spec = CommandSpec(
        name: "export",
        summary: "Write the current results to a file (.json, .ndjson, .csv, .tsv, .geojson) or a new PostgreSQL table",
        parameters: [path, all, force],
        examples: ["export europe.csv", "export results.json --force", "export europe.csv all", "export stations.ndjson", "export stations.geojson",
                   "export postgresql://me@localhost/atlas?table=countries"],
        discussion: """
        A file gets what the listing shows: after columns, those columns in their order (computed \
        ones too, and the fields the sort or filter uses); after group, the groups as listed; after \
        describe, histogram or path, their table (a path's countries step by step); else whole \
        records in the source schema. export FILE \
        all writes whole records whatever is shown (after path, the chain's countries; so do .geojson and a new table). CSV and TSV write a nested object as dotted \
        columns (user.login) and a list as JSON text, which load reads back as the list. An existing \
        file is replaced only with --force; the file appears whole or not at all. A .geojson file holds the results as one GeoJSON FeatureCollection, what map prints under --format json. \
        A postgresql:// URL writes the records into a new table, in one transaction (COPY): each \
        top-level key a column, typed from its values (text, bigint, numeric, boolean, arrays, \
        jsonb); a table's results keep their columns' types and primary key. A dataset's key \
        (alpha3Code, stationId, a file's id) is declared UNIQUE when the rows hold each once: show \
        and near find a row by it, and the rows keep their order. An existing table is replaced only \
        with --force. The results of a table in a database are read through a cursor, whatever \
        their size.
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        guard let given = parsed[Self.path].first else { throw arguments.usageError() }
        let force = parsed.has(Self.force)
        var path = given.text
        // Whole records: those of the results, or of a path's countries when it was the last answer.
        let records: () throws -> any ResultsSource = {
            if let chosen = session.lastSummary?.records { return MemoryResults(records: chosen) }
            return try session.results()
        }
        if let engine = session.engine(for: path) {
            let written = try engine.write(try records(), to: path, replace: force, cancellation: session.cancellation)
            return report(written, to: try engine.shown(path), in: session)
        }
        if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] { path = home + path.dropFirst() }
        let whole = parsed.has(Self.all)
        if path.lowercased().hasSuffix(".geojson") {
            // GeoJSON needs every point in memory: a table's results go to the other formats.
            guard let results = try records().inMemory else {
                throw arguments.usageError("a table exports to .json, .ndjson, .csv, .tsv or .md, or to postgresql://…?table=NEW", at: given.word)
            }
            let text = try GeoJSONWriter.featureCollection(results, outlines: MapCommand.outlines(in: session).0,
                                                           cancellation: session.cancellation) + "\n"
            // Interrupted (Ctrl-C, or a signal that ends the shell), an export is abandoned whole:
            // no temporary file, the old file as it was, and no claim that anything was written.
            try abandonedWhenCancelled(path) {
                try session.cancellation.checkpoint()
                try AtomicFile.write(Array(text.utf8), to: path, overwrite: force, cancellation: session.cancellation)
            }
            return report(results.count, to: path, in: session)
        }
        guard let format = OutputFormat.forFile(path), !format.fileExtensions.isEmpty else {
            throw arguments.usageError("the file's extension says the format: .json, .ndjson, .csv, .tsv or .geojson", at: given.word)
        }
        // What the listing shows: a describe's or histogram's table, the groups after group, the
        // chosen columns; else whole records.
        if !whole, let summary = session.lastSummary {
            let written = try abandonedWhenCancelled(path) {
                try FileExport.write(summary.table, format: format, to: path, force: force, in: session)
            }
            return report(written, to: path, what: summary.rows, in: session)
        }
        if !whole, let groups = session.lastGroups {
            let written = try abandonedWhenCancelled(path) {
                try FileExport.write(groups, format: format, to: path, force: force, in: session)
            }
            return report(written, to: path, what: "group", in: session)
        }
        let source = try records()
        let fields = whole ? nil : session.chosenFields(of: source)
        var shown = source
        if let fields { shown.showing(fields) }
        let written = try abandonedWhenCancelled(path) {
            try FileExport.write(shown, fields: fields, format: format, to: path, force: force, in: session)
        }
        return report(written, to: path, in: session)
    }

    /// Runs a file export; stopped by a cancellation, it says the file was not written.
    private static func abandonedWhenCancelled<T>(_ path: String, _ export: () throws -> T) throws -> T {
        do {
            return try export()
        } catch is CancelledError {
            throw ShellError.invalid("export cancelled: \(SafeText.escape(path)) was not written")
        } catch AtomicFile.Failure.cancelled {
            throw ShellError.invalid("export cancelled: \(SafeText.escape(path)) was not written")
        }
    }

    /// `wrote 250 records to europe.csv`, at the prompt or with --verbose.
    static func report(_ count: Int, to path: String, what: String = "record", in session: Session) -> CommandResult? {
        guard session.isInteractive || session.verbose else { return nil }
        let written = ResultTable(columns: [ResultColumn(what + "s", .integer), ResultColumn("path")],
                                  rows: [[.integer(count), .text(path)]])
        let line = "wrote \(count.grouped) \(what)\(count == 1 ? "" : "s") to \(SafeText.escape(path))"
        return CommandResult(written, shape: .object, prose: .lines([line]))
    }
}

import Foundation
