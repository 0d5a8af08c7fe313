import AlmanacCore

/// `path A B [--map]` (or `path A to B`, `path from A to B`): a shortest chain of land borders
/// from one country to another.
public enum PathCommand: Command {
    static let from = Parameter("FROM", .text(.countries))
    static let to = Parameter("TO", .text(.countries))
    static let map = Parameter.flag("--map")

    public static let spec = CommandSpec(
        name: "path",
        summary: "A shortest chain of land borders from one country to another",
        parameters: [from, to, map],
        examples: ["path Portugal China", "path \"United Kingdom\" France", "path ESP RUS --map", "path Norway to Italy"],
        discussion: """
        FROM and TO are countries by name (quoted when it has spaces), code or any name search \
        knows; path Norway to Italy and path from Norway to Italy read the same. The chain is \
        listed country by country, each with the number of borders crossed to reach it; of chains equally short, the one whose countries come first by name. A border \
        counts when either country names it; a dataset in use with the countries' shape \
        (alpha3Code and a borders list), whatever its name, is followed instead of countries. Without a land route it says so, and what each \
        side's land component (the countries reachable over land) is. --map draws the chain's \
        countries and the line through their centres (latlng); under --format json it is a \
        GeoJSON FeatureCollection of those countries.
        """
    )

    /// The indices of the joining words in `path from A to B` / `path A to B` (unquoted, any
    /// case), which read as `path A B`; none when the words have another shape.
    static func joiners(in words: [Word]) -> [Int] {
        let given = words.indices.filter { words[$0].isQuoted || !words[$0].text.hasPrefix("--") }
        func isWord(_ index: Int, _ text: String) -> Bool { !words[index].isQuoted && words[index].text.lowercased() == text }
        switch given.count {
        case 3 where isWord(given[1], "to"): return [given[1]]
        case 4 where isWord(given[0], "from") && isWord(given[2], "to"): return [given[0], given[2]]
        default: return []
        }
    }

    static func withoutJoiners(_ words: [Word]) -> [Word] {
        let skipped = Set(joiners(in: words))
        return words.indices.filter { !skipped.contains($0) }.map { words[$0] }
    }

    /// `from` and `to` are coloured as keywords; the rest as declared.
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        let skipped = joiners(in: arguments)
        let kept = arguments.indices.filter { !skipped.contains($0) }
        var roles = skipped.map { ArgumentRole(word: $0, role: .keyword) }
        for role in rolesAsDeclared(of: withoutJoiners(arguments), in: session) {
            roles.append(ArgumentRole(word: kept[role.word], role: role.role))
        }
        return roles.sorted { $0.word < $1.word }
    }

    /// After `path from A to `, TO completes as after `path A `: a leading `from` and a `to`
    /// after the first country are left out of the words typed so far.
    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        var request = request
        let arguments = request.arguments
        let kept = arguments.indices.filter { index in
            let word = arguments[index].text.lowercased()
            return arguments[index].isQuoted || !(index == 0 && word == "from" || index > 0 && word == "to")
        }
        request.words = Array(request.words.prefix(1)) + kept.map { arguments[$0] }
        return Parameter.candidates(request, in: spec.parameters ?? [], session: session)
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try Arguments(withoutJoiners(arguments.words), spec: arguments.spec).parse()
        let (countries, start) = try GeoAnswer.country(parsed.text(Self.from), words: parsed[Self.from].map(\.word), in: session)
        let (_, end) = try GeoAnswer.country(parsed.text(Self.to), words: parsed[Self.to].map(\.word), among: countries, in: session)
        let graph = BorderGraph.of(countries)
        let columns = [ResultColumn("step", .integer), ResultColumn("name"), ResultColumn("alpha3Code"), ResultColumn("region")]
        guard let chain = graph.path(from: start, to: end) else {
            let lines = ["no land route from \(SafeText.escape(countries.name(of: start))) to \(SafeText.escape(countries.name(of: end)))",
                         component(of: start, graph: graph, countries: countries), component(of: end, graph: graph, countries: countries)]
            let empty = ResultTable(columns: columns, rows: [])
            shown(empty, chain: [], of: countries, in: session)
            var result = CommandResult(empty, prose: .lines(lines))
            // Programs get the empty answer; why it is empty goes to standard error, not nowhere.
            if session.settings.format.isMachineReadable { result.messages = lines }
            return result
        }
        let code = countries.compile(FieldPath("alpha3Code"))
        let region = countries.compile(FieldPath("region"))
        func text(_ path: Dataset.CompiledPath, _ row: Int) -> ResultValue {
            countries.values(of: path, row: row).first.map { .text(countries.text(of: $0)) } ?? .absent
        }
        let rows = chain.enumerated().map { step, row -> [ResultValue] in
            [.integer(step), .text(countries.name(of: row)), text(code, row), text(region, row)]
        }
        var table = ResultTable(columns: columns, rows: rows)
        table.showsHeader = true
        shown(table, chain: chain, of: countries, in: session)
        let borders = chain.count - 1
        let summary = "\(borders.grouped) border\(borders == 1 ? "" : "s") from \(SafeText.escape(countries.name(of: start))) to "
            + "\(SafeText.escape(countries.name(of: end))) over land"
        guard parsed.has(Self.map) else { return CommandResult(table, notes: [summary]) }
        return try PathMap.result(chain, countries: countries, table: table, summary: summary, in: session)
    }

    /// The chain is the last answer shown: export writes it as listed, not the results under
    /// it, and `all` (or GeoJSON, or a table) the chain's countries whole.
    private static func shown(_ table: ResultTable, chain: [Int], of countries: Dataset, in session: Session) {
        session.lastGroups = nil
        let records = ResultSet(datasets: [countries], items: chain.map { ResultSet.Item(dataset: 0, row: $0) })
        session.lastSummary = ShownSummary(table, rows: "step", records: records)
    }

    /// `United Kingdom's land component: 2 countries (Ireland, United Kingdom)`.
    static func component(of row: Int, graph: BorderGraph, countries: Dataset) -> String {
        let members = graph.members(ofComponentOf: row)
        let name = SafeText.escape(countries.name(of: row))
        guard members.count > 1 else { return "\(name) borders no country over land" }
        let shown = members.prefix(8).map { SafeText.escape(countries.name(of: $0)) }
        let more = members.count > shown.count ? ", … \((members.count - shown.count).grouped) more" : ""
        return "\(name)'s land component: \(members.count.grouped) countries (\(shown.joined(separator: ", "))\(more))"
    }
}
