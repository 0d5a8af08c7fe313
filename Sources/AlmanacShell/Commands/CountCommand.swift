import AlmanacCore

/// `count` prints how many records the current result set holds.
public enum CountCommand: Command {
    public static let spec = CommandSpec(
        name: "count",
        summary: "Count the records of the current results",
        parameters: [],
        examples: ["count"]
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        let count: Int
        if var table = session.tableInUse() {
            // Counted again: the table may have changed since.
            table.counted = nil
            count = try table.count(in: session)
            session.tableResults = table
        } else {
            count = try session.currentResults().count
        }
        return .value("count", .integer(count), kind: .integer, text: String(count))
    }
}
