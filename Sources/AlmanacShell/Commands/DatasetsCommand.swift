import AlmanacCore

/// `datasets`: each dataset's records, state, where it lives, source, load time and warnings;
/// `datasets NAME` also lists its warnings.
public enum DatasetsCommand: Command {
    static let name = Parameter("NAME", .dataset(all: false), .optional)

    public static let spec = CommandSpec(
        name: "datasets",
        summary: "List the datasets: records, state, where they live, source, load time, warnings",
        parameters: [name],
        examples: ["datasets", "datasets species"],
        discussion: """
        In a script, datasets still loading are waited for, so the list shows how each load ended. \
        A dataset lives in memory, or in a database (a table attached with load NAME from \
        postgresql://…): then 'where' names the server and the table, records are counted there \
        (estimated, with ~, when counting takes over a second), and the source is the URL with its \
        password replaced.
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let given = try arguments.parse()[name].first
        session.startPendingLoads()  // it shows every dataset's state: none stays unstarted
        var names = session.catalog.names
        if let given {
            let name = given.text.lowercased()
            guard session.catalog.contains(name) else {
                throw ShellError.at(column: given.word.column, width: TextWidth.of(given.text),
                                    .unknownDataset(given.text, among: session.catalog.names))
            }
            names = [name]
        }
        // A script sees settled loads: at the prompt the states show what is happening now.
        if !session.isInteractive {
            for name in names {
                if let load = session.catalog.activeLoad(name) { try session.wait(for: load) }
            }
        }
        let statuses = session.catalog.statuses().filter { names.contains($0.name) }
        let rows = statuses.map { status -> [ResultValue] in
            let state: String
            if let loading = status.loading {
                state = "loading " + (loading.fraction.map { "\(Int($0 * 100))%" } ?? "")
            } else if let failure = status.failure, status.dataset == nil || failure != .cancelled {
                state = failure == .cancelled ? "cancelled" : "failed: \(failure)"
            } else {
                state = status.dataset == nil ? "not loaded" : "loaded"
            }
            if let table = status.table { return attachedRow(status.name, table, in: session) }
            let dataset = status.dataset
            return [
                .text(status.name), dataset.map { .integer($0.count) } ?? .absent, .text(state),
                .text(dataset == nil ? "" : "memory"), .text(status.source.description),
                dataset.map { .text(Duration.text($0.origin.seconds)) } ?? .absent,
                dataset.map { .integer($0.warnings.count) } ?? .absent,
            ]
        }
        let table = ResultTable(columns: [ResultColumn("name"), ResultColumn("records", .integer), ResultColumn("state"),
                                          ResultColumn("where"), ResultColumn("source"), ResultColumn("load time"),
                                          ResultColumn("warnings", .integer)],
                                rows: rows)
        var notes = [session.environment.dataFolderLine]
        if given != nil, let dataset = statuses.first?.dataset, !dataset.warnings.isEmpty {
            // One warning to a line, wrapped under its own text, so each stands out from the next.
            let width = session.renderContext.width
            notes = ["", "warnings:"] + dataset.warnings.flatMap { Prose.wrap(SafeText.escape($0.description), width: width, lead: "  ", indent: 4) }
        }
        return CommandResult(table, notes: notes)
    }

    /// A table in a database: counted there, where it lives, its URL without the password.
    static func attachedRow(_ name: String, _ table: any AttachedTable, in session: Session) -> [ResultValue] {
        var records = ResultValue.absent
        if let counted = table.quickCount(timeout: 1, cancellation: session.cancellation) {
            records = counted.exact ? .integer(counted.count) : .text("~" + counted.count.grouped)
        }
        return [.text(name), records, .text("attached"), .text("\(table.system) \(table.location)"), .text(table.shownSource),
                .absent, .absent]
    }
}
