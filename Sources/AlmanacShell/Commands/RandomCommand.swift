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
        var source = try session.results()
        let total = try source.count(fresh: false, cancellation: session.cancellation)
        guard total > 0 else { throw ShellError.invalid("the results are empty") }
        if session.source != nil { session.keep(source) }
        return RecordTarget.result(try source.record(at: Int.random(in: 0..<total), cancellation: session.cancellation), in: session)
    }
}
