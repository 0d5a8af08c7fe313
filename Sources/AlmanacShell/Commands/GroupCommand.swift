import AlmanacCore

/// `group FIELD[, FIELD…] [AGG FIELD, …]` counts records per value (per combination), largest
/// first, with each group's share and aggregates; `show #N` then lists group N's records.
public enum GroupCommand: Command {
    static let fields = Parameter.field(.list(suffixes: []))
    static let aggregates = Parameter("AGG FIELD", .aggregate, .optionalList(suffixes: []))
    static let all = Parameter.flag("--all")

    public static let spec = CommandSpec(
        name: "group",
        summary: "Count the results per value of fields, with sums, averages and more",
        parameters: [fields, aggregates, all],
        examples: ["group region", "group countryTitle, cityTitle", "group region sum population, avg area",
                   "group languages.name", "group classification avg average_lifespan, max average_height",
                   "group countryTitle distinct cityTitle", "group region; show #1",
                   "group region avg(population / area) as density", "group year(created) as year"],
        discussion: """
        AGG is count (records with a value), sum, avg, min, max or distinct (different values). Every \
        group has its count and its share of the records in percent (to a tenth; below 1 to two \
        significant digits, 0.025, so a group with records never reads 0); a list field counts each of its \
        values (a country in every language it speaks), and records without a value make a <none> \
        group. Largest groups first, equal ones by value. After a group, show #N lists the records of \
        group N (back returns). In the table format each group also has a bar of eighth blocks, the \
        largest group's as wide as the terminal leaves room for. At most 10,000 groups are listed, \
        with a line saying how many more there are; --all lists every group. FIELD may be an \
        expression and an aggregate AGG(EXPR), each with as NAME (group year(created) as year, group \
        region avg(population / area) as density): help expressions.
        """
    )

    /// Each name between commas is a field; the commas are punctuation.
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        if ExpressionWords.areComputed(arguments) { return ExpressionCompletion.roles(of: arguments) }
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
        let spec = try parse(arguments, in: session)
        var source = try session.results()
        try checkSums(spec, of: source, in: session)
        let groups = try source.group(spec, cancellation: session.cancellation)
        if session.source != nil { session.keep(source) }
        session.lastGroups = groups
        session.lastSummary = nil
        var result = GroupResult.result(spec, count: groups.count, total: groups.total, in: session) { groups.row($0) }
        if groups.total == 0 { result.emptyNote = "no records to group — " + session.leftNone(source) }
        if groups.groups > groups.count {
            let note = "\((groups.groups - groups.count).grouped) more groups not listed (the \(groups.count.grouped) largest are) — "
                + "group \(spec.fields.joined(separator: ", ")) --all lists every one"
            // Machine formats carry no notes: a program reading them is told on standard error.
            if session.settings.format.isMachineReadable { session.output.message("note: " + note) } else { result.notes.append(note) }
        }
        return result
    }

    /// sum and avg add numbers: of text (or dates, booleans) they were a blank column, in memory
    /// and in a database alike; now an error naming the field and its type.
    static func checkSums(_ spec: GroupSpec, of source: any ResultsSource, in session: Session) throws {
        for aggregate in spec.aggregates where aggregate.function == .sum || aggregate.function == .avg {
            let isField = { (name: String) in (try? source.checkField(name, cancellation: session.cancellation)) != nil }
            guard let expression = try? ComputedField.parse(aggregate.field, isField: isField).expression,
                  let type = try? source.checkExpression(expression, cancellation: session.cancellation),
                  type.element != .number, type.element != .null else { continue }
            throw ShellError.invalid("'\(aggregate.field)' is \(type.withArticle); \(aggregate.function.rawValue) needs numbers "
                + "(count, distinct, min and max read any value)")
        }
    }

    /// Groups listed unless `--all` is given.
    static let defaultLimit = 10_000

    /// `region, subregion sum population, avg area`: fields (commas or spaces between them),
    /// and `AGG FIELD` pairs, as declared.
    static func parse(_ arguments: Arguments, in session: Session? = nil) throws -> GroupSpec {
        // SQL's count(*) is the count column every group has: said so, not "expected a value before '*'".
        if let star = arguments.words.first(where: { !$0.isQuoted && $0.text.lowercased().hasPrefix("count(*)") }) {
            throw arguments.usageError("every group has its count column already; count(FIELD) counts the records with a value", at: star)
        }
        if ExpressionWords.areComputed(arguments.words) {
            // `--all` anywhere, as the declared flag is read.
            let everything = arguments.words.contains { !$0.isQuoted && $0.text == "--all" }
            var spec = try computed(Arguments(arguments.words.filter { $0.isQuoted || $0.text != "--all" }, spec: arguments.spec),
                                    in: session)
            spec.limit = everything ? nil : defaultLimit
            return spec
        }
        let parsed = try arguments.parse()
        let fields = parsed[Self.fields]
        guard fields.count <= 16 else { throw arguments.usageError("at most 16 fields, not \(fields.count)", at: fields[16].word) }
        // A computed column's name (`group density`, `group r` after `columns region as r`) is that column.
        let names = session.map(ExpressionWords.names) ?? [:]
        var spec = GroupSpec(fields: fields.map { names[$0.text]?.spec ?? $0.text })
        spec.limit = parsed.has(all) ? nil : defaultLimit
        spec.aggregates = parsed[aggregates].compactMap { given in
            given.qualifier.flatMap { Aggregate.Function(rawValue: $0.text.lowercased()) }.map {
                Aggregate($0, names[given.text] == nil ? given.text : Self.spec(Expression(.field(given.text)), names: names))
            }
        }
        return spec
    }

    /// `year(created) as year`, `region avg(population / area) as density`: keys (commas or
    /// spaces between them), then aggregates — `AGG(EXPR) [as NAME]`, or `AGG FIELD` as before.
    static func computed(_ arguments: Arguments, in session: Session?) throws -> GroupSpec {
        let items = try ExpressionWords.items(arguments, spaces: true)
        let names = session.map(ExpressionWords.names) ?? [:]
        var spec = GroupSpec(fields: [])
        var checked: [Expression] = []
        var index = 0
        func function(_ name: String) -> Aggregate.Function? { Aggregate.Function(rawValue: name.lowercased()) }
        while index < items.count {
            let item = items[index]
            let spelled = ExpressionWords.resolving(item, names: names)
            if index > 0, case let .call(name, given) = item.expression.node, let aggregate = function(name) {
                guard given.count == 1 else {
                    throw ExpressionWords.pointed(ExpressionError("\(name)(…) takes one expression", at: item.span), in: arguments.words)
                }
                spec.aggregates.append(Aggregate(aggregate, Self.spec(given[0], names: names), name: item.name))
                checked.append(given[0])
            } else if index > 0, item.name == nil, let word = item.expression.fieldName, let aggregate = function(word),
                      index + 1 < items.count, !items[index + 1].afterComma {
                // The old form, `sum population`.
                let next = items[index + 1]
                spec.aggregates.append(Aggregate(aggregate, Self.spec(next.expression, names: names), name: next.name))
                checked.append(next.expression)
                index += 1
            } else {
                if index > 0, item.name == nil, let word = item.expression.fieldName, let aggregate = function(word) {
                    // `… avg(x), count`: an aggregate with nothing to read, not a field out of place.
                    throw ExpressionWords.pointed(ExpressionError("\(aggregate.rawValue) needs a field: \(aggregate.rawValue)(FIELD)"
                        + (aggregate == .count ? " (every group has its count column already)" : ""), at: item.span), in: arguments.words)
                }
                guard spec.aggregates.isEmpty else {
                    throw ExpressionWords.pointed(ExpressionError("the fields to group by come before the aggregates", at: item.span),
                                                  in: arguments.words)
                }
                spec.fields.append(spelled)
                checked.append(item.expression)
            }
            index += 1
        }
        guard !spec.fields.isEmpty else { throw arguments.usageError("missing FIELD") }
        if let session { try ExpressionWords.check(checked, names: names, in: session, words: arguments.words) }
        guard spec.fields.count <= 16 else { throw arguments.usageError("at most 16 fields, not \(spec.fields.count)") }
        return spec
    }

    /// An aggregate's expression as its spec, computed columns' names resolved.
    private static func spec(_ expression: Expression, names: [String: (spec: String, expression: Expression)]) -> String {
        if let field = expression.fieldName, let named = names[field] { return ComputedField.spec(named.expression, name: nil) }
        let resolved = expression.substituting(names.mapValues(\.expression))
        return resolved.fieldName ?? ComputedField.spec(resolved, name: nil)
    }
}
