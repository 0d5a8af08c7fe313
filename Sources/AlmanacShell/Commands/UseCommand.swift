import AlmanacCore

/// `use NAME` makes a dataset current (the prompt shows it); `use all` spans every dataset;
/// `use` alone says which is in use. Choosing is a fresh start: no search, filter, sort or
/// chosen columns survive it.
public enum UseCommand: Command {
    static let name = Parameter("NAME", .dataset(all: true), .optional)

    public static let spec = CommandSpec(
        name: "use",
        summary: "Choose the dataset commands work on",
        parameters: [name],
        examples: ["use countries", "use all", "use"],
        discussion: "Choosing a dataset, even the one in use, is a fresh start: the whole dataset again, with no search, filter or sort, and its usual columns (columns chosen before are forgotten). Under use all, each record's dataset is a field, dataset, as listings show it: group dataset, filter dataset = species, sort dataset."
    ).role(.shapes(answeringBelow: 1))

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        guard let given = try arguments.parse()[name].first else {
            let text: String
            if let name = session.currentName, name != "all" {
                // The dataset commands answer for, loaded or not: wait for it to say what it holds.
                let state: String
                if let table = session.catalog.table(name) {
                    state = "\(table.system) \(table.location)"
                } else {
                    do {
                        let dataset = try session.dataset(name)
                        state = dataset.model.summary(of: dataset)
                    } catch let error as ShellError {
                        state = "\(error)"
                    }
                }
                text = "using \(name) (\(state))"
            } else {
                text = "using all datasets: \(session.catalog.names.joined(separator: ", "))"
            }
            let table = ResultTable(columns: [ResultColumn("using"), ResultColumn("datasets", .list)],
                                    rows: [[.text(session.currentName ?? "all"), .list(session.scopeNames.map { .text($0) })]])
            return CommandResult(table, shape: .object, prose: .lines([text]))
        }
        let name = given.text.lowercased()
        if name != "all" {
            guard session.catalog.contains(name) else {
                throw ShellError.at(column: given.word.column, width: TextWidth.of(given.text),
                                    .unknownDataset(given.text, among: session.catalog.names))
            }
        }
        // The datasets in use start loading now, before the command that needs them.
        if name == "all" { session.startPendingLoads() } else { session.catalog.start(name) }
        session.currentName = name
        session.resetQuery()
        // A fresh start: the whole dataset again, in its own columns.
        session.chosenColumns = [:]
        return nil
    }
}
