import AlmanacCore
import AlmanacPostgres

/// `load` reloads every dataset; `load NAME` one; `load NAME from SOURCE` reads a file or
/// an http(s) URL (a new name makes a generic dataset). The new contents replace the old only
/// when the whole load succeeds.
public enum LoadCommand: Command {
    public static let spec = CommandSpec(
        name: "load",
        summary: "Load or reload datasets, from their files or from a path or URL",
        usage: "load [NAME] [from SOURCE]",
        examples: ["load", "load stations", "load quotes from ~/quotes.json", "load species from https://swapi.dev/api/species/",
                   "load sales from postgresql://me@db.example.com/shop?table=sales"],
        discussion: """
        SOURCE is a file (a JSON array of records, API pages with 'results', the stations object, \
        or NDJSON) or an http(s) URL whose pages are followed through 'next'. NAME says which model \
        reads it: countries, species, planets, people, stations, or any other name for a generic \
        dataset. Ctrl-C cancels; a failed or cancelled load keeps the previous contents. \
        A postgresql:// (or postgres://) URL with ?table=[SCHEMA.]TABLE attaches a table or view \
        instead: nothing is copied, and every command on it runs in the database (libpq's \
        PG* variables and ~/.pgpass apply). A password is never shown, and history keeps the \
        line without it.
        """
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        let words = request.arguments.map(\.text)
        if words.last?.lowercased() == "from" { return CompletionSources.files(request) }
        switch words.count {
        case 0: return CompletionSources.datasets(request, in: session) + request.matching(["from"])
        case 1: return request.matching(["from"])
        default: return []
        }
    }

    /// A known name is a dataset (a new one makes a generic dataset, so it is not an error).
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        arguments.enumerated().map { index, word in
            if !word.isQuoted, word.text.lowercased() == "from" { return ArgumentRole(word: index, role: .keyword) }
            if index == 0, session.catalog.contains(word.text) { return ArgumentRole(word: index, role: .dataset) }
            return ArgumentRole(word: index, role: word.isQuoted ? .string : .plain)
        }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let words = arguments.words.map(\.text)
        var requests: [LoadRequest] = []
        var attached: [(PostgresTable, Double)] = []
        switch words.count {
        case 2 where words[0].lowercased() == "from" && PostgresURL.isPostgres(words[1]):
            return try TableAttachment.attach(words[1], as: nil, in: session)
        case 3 where words[1].lowercased() == "from" && PostgresURL.isPostgres(words[2]):
            return try TableAttachment.attach(words[2], as: try datasetName(words[0], arguments), in: session)
        case 0:
            requests = session.catalog.names.compactMap { session.catalog.request(for: $0) }
            attached = try TableAttachment.reattach(session.catalog.names, in: session)
        case 1 where session.catalog.table(words[0]) != nil:
            return TableAttachment.summary(of: try TableAttachment.reattach([words[0]], in: session), in: session)
        case 1:
            guard let request = session.catalog.request(for: words[0]) else {
                throw arguments.usageError("unknown dataset '\(SafeText.escape(words[0]))' — to load a file: load NAME from PATH")
            }
            requests = [request]
        case 2 where words[0].lowercased() == "from":
            let source = try LoadSource.parse(words[1])
            requests = [LoadRequest(name: source.suggestedName, source: source, model: DefaultDatasets.model(for: source.suggestedName))]
        case 3 where words[1].lowercased() == "from":
            let name = try datasetName(words[0], arguments)
            requests = [LoadRequest(name: name, source: try LoadSource.parse(words[2]), model: DefaultDatasets.model(for: name))]
        default:
            throw arguments.usageError()
        }
        // A load from a URL reads what the settings allow now, reloads included.
        let loads = requests.map { request in
            var request = request
            request.bounds = session.settings.fetchBounds
            return session.catalog.load(request)
        }
        var failures = 0
        var loaded: [Dataset] = []
        for load in loads {
            try session.wait(for: load)
            if let dataset = report(load, in: session) { loaded.append(dataset) } else { failures += 1 }
        }
        if let result = TableAttachment.summary(of: attached, in: session) { session.render(result) }
        if failures > 0 {
            // What did load is said before the error.
            if let result = summary(of: loaded, in: session) { session.render(result) }
            throw ShellError.invalid(failures == 1 ? "1 load failed" : "\(failures) loads failed")
        }
        return summary(of: loaded, in: session)
    }

    /// NAME as typed, checked: letters, digits, _ and -, starting with a letter; not `all`.
    static func datasetName(_ word: String, _ arguments: Arguments) throws -> String {
        let name = word.lowercased()
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }), name.first?.isLetter == true else {
            throw arguments.usageError("a dataset name is letters, digits, _ and -, starting with a letter")
        }
        guard name != "all" else { throw arguments.usageError("'all' is reserved for use all") }
        return name
    }

    /// One row per dataset loaded, at the prompt or with --verbose.
    static func summary(of datasets: [Dataset], in session: Session) -> CommandResult? {
        guard session.isInteractive || session.verbose, !datasets.isEmpty else { return nil }
        let table = ResultTable(columns: [ResultColumn("name"), ResultColumn("records", .integer), ResultColumn("summary"),
                                          ResultColumn("bytes", .integer), ResultColumn("seconds", .decimal)],
                                rows: datasets.map { [.text($0.name), .integer($0.count), .text($0.model.summary(of: $0)),
                                                      .integer($0.origin.bytes), .decimal($0.origin.seconds)] })
        return CommandResult(table, prose: .lines(datasets.map(LoadSummary.line(for:))))
    }

    /// Reports warnings and failures of a finished load; returns the dataset when it succeeded.
    static func report(_ load: ActiveLoad, in session: Session) -> Dataset? {
        let name = load.request.name
        switch load.result {
        case let .success(dataset)?:
            if let warnings = LoadSummary.warnings(for: dataset) { session.output.message(warnings) }
            return dataset
        case let .failure(failure)?:
            let kept = session.keptContents(of: name)
            session.output.message("\(name): \(failure == .cancelled ? "load cancelled" : "load failed: \(SafeText.escape(failure.description))")\(kept)")
            return nil
        case nil:
            return nil
        }
    }
}

/// The lines that tell how a load went.
enum LoadSummary {
    /// `stations: 4,037 stations in 3,120 cities · 3.4 MB in 0.12 s`.
    static func line(for dataset: Dataset) -> String {
        "\(dataset.name): \(dataset.model.summary(of: dataset)) · \(ByteCount.text(dataset.origin.bytes)) in "
            + Duration.text(dataset.origin.seconds)
    }

    /// `species: 3 warnings — record 2 (Droid): …` with the first few, or nil.
    static func warnings(for dataset: Dataset, shown: Int = 3) -> String? {
        let warnings = dataset.warnings
        guard !warnings.isEmpty else { return nil }
        var text = "\(dataset.name): \(warnings.count) warning\(warnings.count == 1 ? "" : "s") — "
            + warnings.prefix(shown).map { SafeText.escape($0.description) }.joined(separator: "; ")
        if warnings.count > shown { text += "; … ('datasets \(dataset.name)' lists all)" }
        return text
    }
}
