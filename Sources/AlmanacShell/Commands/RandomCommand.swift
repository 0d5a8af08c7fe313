import AlmanacCore

/// `random` shows one random record of the current results, in detail.
public enum RandomCommand: Command {
    public static let spec = CommandSpec(
        name: "random",
        summary: "Show a random record of the current results",
        parameters: [],
        examples: ["random"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        if let table = session.tableInUse() { return try TableShow.random(table, in: session) }
        let results = try session.currentResults()
        guard let item = results.items.randomElement() else { throw ShellError.invalid("the results are empty") }
        return RecordTarget.result(RecordTarget(dataset: results.dataset(of: item), row: item.row), in: session)
    }
}
