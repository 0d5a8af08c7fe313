import AlmanacCore
import AlmanacPostgres

/// `group FIELD[, FIELD…]` counts records per value (per combination), largest first, with each
/// group's share in percent and, for people, as a bar.
public enum GroupCommand: Command {
    public static let spec = CommandSpec(
        name: "group",
        summary: "Count the results per value of one or more fields",
        usage: "group FIELD[, FIELD...]",
        examples: ["group region", "group countryTitle, cityTitle", "group classification"],
        discussion: """
        Each group's count and its share of the results in percent; in the table format also a \
        bar of eighth blocks, the largest group's as wide as the terminal leaves room for.
        """
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        CompletionSources.fields(request, in: session)
    }

    /// Each name between commas is a field; the commas are punctuation.
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        var roles: [ArgumentRole] = []
        for (index, word) in arguments.enumerated() {
            let characters = Array(word.text)
            var start = 0
            for offset in 0...characters.count where offset == characters.count || characters[offset] == "," {
                if offset > start { roles.append(ArgumentRole(word: index, characters: start..<offset, role: .field)) }
                if offset < characters.count { roles.append(ArgumentRole(word: index, characters: offset..<(offset + 1), role: .operator)) }
                start = offset + 1
            }
        }
        return roles
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let fields = arguments.text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard !fields.isEmpty else { throw arguments.usageError("missing FIELD") }
        guard fields.count <= 16 else { throw arguments.usageError("at most 16 fields, not \(fields.count)") }
        if let table = session.tableInUse() { return try TableGrouping.result(GroupSpec(fields: fields), table, in: session) }
        let results = try session.currentResults()
        let groups = try Ordering.group(results, by: fields, cancellation: session.cancellation)
        let total = results.count
        let columns = fields.map { ResultColumn($0, absentText: "<none>") } + [ResultColumn("count", .integer), ResultColumn("percent", .decimal)]
        let table = ResultTable(columns: columns, count: groups.count) { index in
            let group = groups[index]
            let percent = total == 0 ? 0 : (Double(group.count) * 1000 / Double(total)).rounded() / 10
            let values = group.values.indices.map { index -> ResultValue in
                if group.values[index].isEmpty { return .absent }
                return group.numbers[index] ? .literal(group.values[index]) : .text(group.values[index])
            }
            return values + [.integer(group.count), .decimal(percent)]
        }
        // People also see each group's share as a bar, the largest group's filling the terminal.
        let bars = BarColumn.appending(to: table, quantities: groups.map { Double($0.count) }, context: session.renderContext)
        return CommandResult(table, prose: .table(bars))
    }
}
