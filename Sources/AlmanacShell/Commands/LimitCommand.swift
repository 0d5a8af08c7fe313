import AlmanacCore

/// `limit N` keeps the first N results, in their order (so after a sort, the top N);
/// `limit` alone takes the limits away again.
public enum LimitCommand: Command {
    static let count = Parameter("N", .number(0...Int.max, or: []), .optional)

    public static let spec = CommandSpec(
        name: "limit",
        summary: "Keep the first N results (limit alone: all of them again)",
        parameters: [count],
        examples: ["sort area desc; limit 5", "limit 10", "limit"],
        discussion: """
        A step like filter and sort: commands after it work on the N results kept (sort name \
        orders the five, filter narrows them), back undoes it, and limit alone lists the results \
        as the steps since the last search make them without any limit. On an attached \
        PostgreSQL table it is the query's LIMIT.
        """
    ).role(.shapes())

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        guard let count = try arguments.parse()[Self.count].first?.number else { return try session.apply(.clearLimits) }
        return try session.apply(.limit(count))
    }
}
