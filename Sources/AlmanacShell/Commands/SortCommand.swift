import AlmanacCore
import AlmanacPostgres

/// `sort FIELD [asc|desc]` orders the current result set.
public enum SortCommand: Command {
    public static let spec = CommandSpec(
        name: "sort",
        summary: "Order the results by a field",
        usage: "sort FIELD [asc|desc]",
        examples: ["sort population desc", "sort name", "sort average_height desc"]
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        switch request.arguments.count {
        case 0: return CompletionSources.fields(request, in: session)
        case 1: return request.matching(["asc", "desc"])
        default: return []
        }
    }

    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        arguments.indices.map { ArgumentRole(word: $0, role: $0 == 0 ? .field : .keyword) }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        try arguments.expect(count: 1...2)
        var descending = false
        if arguments.count == 2 {
            switch arguments[1].lowercased() {
            case "asc": descending = false
            case "desc": descending = true
            default: throw arguments.usageError("the order is asc or desc, not '\(SafeText.escape(arguments[1]))'")
            }
        }
        if let table = session.tableInUse() {
            // A new order, ties kept in the order before it (as a stable sort in memory keeps them).
            var query = table.query
            query.sort = [SortKey(arguments[0], descending: descending)] + query.sort.filter { $0.field != arguments[0] }
            return try TableListing.show(table.asking(query), in: session)
        }
        let base = try session.currentResults()
        return session.show(try Ordering.sort(base, by: arguments[0], descending: descending, cancellation: session.cancellation))
    }
}
