import AlmanacCore

/// `back` undoes the last change to the results — a search, filter, sort, drill-down or
/// columns change — and lists the results as they were.
public enum BackCommand: Command {
    public static let spec = CommandSpec(
        name: "back",
        summary: "Undo the last filter, sort, limit, drill-down or columns change",
        parameters: [],
        examples: ["back", "filter region = Europe; sort area desc; back"],
        discussion: "One step at a time; with nothing left to undo it says so. use NAME starts afresh."
    ).role(.shapes())

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        guard let last = session.undoable.popLast() else {
            throw ShellError.invalid("nothing to undo: the results are every record of \(session.scopeNames.joined(separator: ", "))")
        }
        switch last {
        case let .results(previous):
            session.source = previous
            if previous == nil { session.tableIdentity = nil }
        case let .columns(dataset, previous):
            session.chosenColumns[dataset] = previous
        }
        return try session.list(try session.results(), page: 1)
    }
}
