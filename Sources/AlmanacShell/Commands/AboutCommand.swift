import AlmanacCore

/// `about`: the version, the author (AlmanacVersion, as `--version` and the manual page), the data sources with their counts and licences.
public enum AboutCommand: Command {
    public static let spec = CommandSpec(
        name: "about",
        summary: "Show the version, the makers, the data sources and their licences",
        parameters: [],
        examples: ["about"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        var lines = ["almanac \(AlmanacVersion.current) — an interactive shell for exploring datasets",
                     "Author: \(AlmanacVersion.author)", session.environment.dataFolderLine, ""]
        var rows: [[ResultValue]] = []
        session.startPendingLoads()  // it names every dataset's size: all load at once, not one by one
        for source in DataSource.bundled {
            lines.append("\(source.dataset)\(state(of: source.dataset, in: session)): \(source.origin) — \(source.licence)")
            let dataset = session.catalog.dataset(source.dataset)
            rows.append([.text(source.dataset), dataset.map { .integer($0.count) } ?? .absent, .text(source.origin), .text(source.licence)])
        }
        // Tables attached from databases: where they live, never how to log in.
        for name in session.catalog.names {
            guard let table = session.catalog.table(name) else { continue }
            lines.append(SafeText.escape("\(name): a table in \(table.system), \(table.location)"))
            rows.append([.text(name), .absent, .text("\(table.system) \(table.location)"), .absent])
        }
        lines += ["", "Details, formats and the messy parts of the data: \(SafeText.escape(session.environment.dataDirectory))/README.md"]
        let table = ResultTable(columns: [ResultColumn("dataset"), ResultColumn("records", .integer), ResultColumn("origin"),
                                          ResultColumn("licence")], rows: rows)
        return CommandResult(table, prose: .lines(lines))
    }

    /// ` (250 countries)`. A script waits for the load, as the seeds' About screens showed
    /// counts; at the prompt a load still running says how far it is (` (loading 42%)`).
    static func state(of name: String, in session: Session) -> String {
        guard session.catalog.contains(name) else { return "" }
        if !session.isInteractive { _ = try? session.dataset(name) }
        guard let status = session.catalog.statuses().first(where: { $0.name == name }) else { return "" }
        if let dataset = status.dataset { return " (\(dataset.model.summary(of: dataset)))" }
        if let load = session.catalog.activeLoad(name) { return " (loading \(Int((load.progress.snapshot.fraction ?? 0) * 100))%)" }
        return status.failure.map { " (failed: \($0))" } ?? ""
    }
}
