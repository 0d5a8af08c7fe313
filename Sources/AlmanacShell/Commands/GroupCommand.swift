import AlmanacCore

/// `group FIELD[, FIELD…] [AGG FIELD, …]` counts records per value (per combination), largest
/// first, with each group's share and aggregates; `show #N` then lists group N's records.
public enum GroupCommand: Command {
    static let fields = Parameter.field(.list(suffixes: []))
    static let aggregates = Parameter("AGG FIELD", .aggregate, .optionalList(suffixes: []))

    public static let spec = CommandSpec(
        name: "group",
        summary: "Count the results per value of fields, with sums, averages and more",
        parameters: [fields, aggregates],
        examples: ["group region", "group countryTitle, cityTitle", "group region sum population, avg area",
                   "group languages.name", "group classification avg average_lifespan, max average_height",
                   "group countryTitle distinct cityTitle", "group region; show #1"],
        discussion: """
        AGG is count (records with a value), sum, avg, min, max or distinct (different values). Every \
        group has its count and its share of the records in percent; a list field counts each of its \
        values (a country in every language it speaks), and records without a value make a <none> \
        group. Largest groups first, equal ones by value. After a group, show #N lists the records of \
        group N (back returns). In the table format each group also has a bar of eighth blocks, the \
        largest group's as wide as the terminal leaves room for.
        """
    )

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
        let spec = try parse(arguments)
        var source = try session.results()
        let groups = try source.group(spec, cancellation: session.cancellation)
        if session.source != nil { session.keep(source) }
        session.lastGroups = groups
        return GroupResult.result(spec, count: groups.count, total: groups.total, in: session) { groups.row($0) }
    }

    /// `region, subregion sum population, avg area`: fields (commas or spaces between them),
    /// and `AGG FIELD` pairs, as declared.
    static func parse(_ arguments: Arguments) throws -> GroupSpec {
        let parsed = try arguments.parse()
        let fields = parsed[Self.fields]
        guard fields.count <= 16 else { throw arguments.usageError("at most 16 fields, not \(fields.count)", at: fields[16].word) }
        var spec = GroupSpec(fields: fields.map(\.text))
        spec.aggregates = parsed[aggregates].compactMap { given in
            given.qualifier.flatMap { Aggregate.Function(rawValue: $0.text.lowercased()) }.map { Aggregate($0, given.text) }
        }
        return spec
    }
}
