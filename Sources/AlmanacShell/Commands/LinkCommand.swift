import AlmanacCore

/// `link` lists the links paths may cross; `link A.FIELD to B.KEY` declares one between any two
/// datasets (loaded files, bundled ones, attached tables); `link drop A.FIELD` forgets it.
public enum LinkCommand: Command {
    static let field = Parameter("DATASET.FIELD", .text(.datasetFields, or: ["drop"]), .optionalWords)
    static let key = Parameter("DATASET.KEY", .text(.datasetFields), .optional, after: "to")

    public static let spec = CommandSpec(
        name: "link",
        summary: "List the links between datasets, or declare one: link pets.owner_id to owners.id",
        parameters: [field, key],
        examples: ["link", "link pets.owner_id to owners.id", "link drop pets.owner_id"],
        discussion: """
        A path may cross a link wherever a field may stand: use people; filter homeworld.climate ~ arid \
        reads each person's planet. The bundled datasets link people's homeworld and species, species' \
        homeworld and people, planets' residents, countries' borders and a station's country; every \
        link is also followed backwards, named after the dataset that links (countries.stations, \
        planets.people). A declared link matches the field's values with the key's (numbers by their \
        digits, text exactly); save keeps declared links.
        """
    ).role(.shapes(answeringBelow: 1))

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        let words = parsed[field]
        guard let first = words.first else { return listing(in: session) }
        if first.text.lowercased() == "drop", !first.word.isQuoted {
            guard words.count == 2, parsed[key].isEmpty else { throw arguments.usageError("link drop DATASET.FIELD") }
            let (dataset, field) = try split(words[1], arguments)
            guard session.catalog.dropLink(from: dataset, named: field) else {
                throw ShellError.invalid("no declared link \(SafeText.escape(words[1].text)) — 'link' lists the links")
                    .pointing(at: [words[1].word])
            }
            return nil
        }
        guard words.count == 1, let target = parsed[key].first else {
            throw arguments.usageError("link DATASET.FIELD to DATASET.KEY", after: words.last?.word)
        }
        let (from, field) = try split(first, arguments)
        let (to, key) = try split(target, arguments)
        try check(field, of: from, word: first, in: session)
        try check(key, of: to, word: target, in: session)
        session.catalog.declare(LinkDefinition(from: from, name: field, field: field, to: to, match: .key(key), isDeclared: true))
        return nil
    }

    /// `pets.owner_id` → (`pets`, `owner_id`): the dataset, then the field (which may be dotted).
    static func split(_ value: ArgumentValue, _ arguments: Arguments) throws -> (dataset: String, field: String) {
        let parts = value.text.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw arguments.usageError("'\(SafeText.escape(value.text))' is not DATASET.FIELD", at: value.word)
        }
        return (parts[0].lowercased(), parts[1])
    }

    /// The dataset is known and has the field (a table's columns come from its database).
    static func check(_ field: String, of name: String, word: ArgumentValue, in session: Session) throws {
        guard session.catalog.contains(name) else {
            throw ShellError.at(column: word.word.column, width: name.count, .unknownDataset(name, among: session.catalog.names))
        }
        let source: any ResultsSource
        if let table = session.catalog.table(name) {
            source = table.results()
        } else {
            source = MemoryResults(datasets: [try session.dataset(name)])
        }
        do {
            _ = try source.checkField(field, cancellation: session.cancellation)
        } catch let error as QueryError {
            throw ShellError.invalid("\(name): \(error)").pointing(at: [word.word])
        }
    }

    /// Every link, bundled and declared, each way.
    static func listing(in session: Session) -> CommandResult {
        let links = session.catalog.links
        let rows: [[ResultValue]] = links.map { link in
            [.text(link.from), .text(link.name), .text(link.to), .text(how(link)), .boolean(link.isDeclared)]
        }
        let table = ResultTable(columns: [ResultColumn("dataset"), ResultColumn("link"), ResultColumn("to"), ResultColumn("how"),
                                          ResultColumn("declared", .boolean)], rows: rows)
        return CommandResult(table, emptyNote: "no links: the datasets they join are not loaded")
    }

    /// `homeworld = planets.url`, `← stations.country`.
    static func how(_ link: LinkDefinition) -> String {
        if link.isReverse { return "\(link.to) whose \(link.field) leads here" }
        switch link.match {
        case let .key(key): return "\(link.field) = \(link.to).\(key)"
        case .countryName: return "\(link.field) names the country"
        }
    }
}
