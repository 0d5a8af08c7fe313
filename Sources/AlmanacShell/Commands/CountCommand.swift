import AlmanacCore

/// `count` prints how many records the current result set holds.
public enum CountCommand: Command {
    public static let spec = CommandSpec(
        name: "count",
        summary: "Count the records of the current results",
        usage: "count",
        examples: ["count"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws {
        try arguments.expect(count: 0...0)
        session.output.print(String(try session.currentResults().count))
    }
}
