import AlmanacCore

/// `load` reloads every dataset; `load NAME` one; `load NAME from SOURCE` reads a file or
/// an http(s) URL (a new name makes a generic dataset). The new contents replace the old only
/// when the whole load succeeds.
public enum LoadCommand: Command {
    static let name = Parameter("NAME", .dataset(all: false, orFile: true), .optional)
    static let source = Parameter("SOURCE", .text(.files), .optional, after: "from")
    static let format = Parameter("FORMAT", .word(LoadOptions.Format.allCases.map(\.rawValue)), .optional, after: "as").requiring("from")
    static let recordsAt = Parameter("PATH", .text(.nothing), .optional, after: "at").requiring("from")
    static let key = Parameter("FIELD", .text(.nothing), .optional, after: "key").requiring("from")
    /// The words that start a parameter, from the declarations above.
    static let keywords = [source, format, recordsAt, key].compactMap(\.keyword)

    public static let spec = CommandSpec(
        name: "load",
        summary: "Load or reload datasets, from their files or from a path or URL",
        parameters: [name, source, format, recordsAt, key],
        examples: ["load", "load stations", "load ~/quotes.json", "load quotes from ~/quotes.json", "load people from people.csv",
                   "load sales from export.txt as csv", "load issues from response.json at data.items key number",
                   "load species from https://swapi.dev/api/species/",
                   "load sales from postgresql://me@db.example.com/shop?table=sales"],
        discussion: """
        SOURCE is a file or an http(s) URL whose pages are followed through 'next'; 'load PATH' \
        alone (a word with a slash, a ~ or a known extension) loads it under its file's name \
        (load ~/quotes.json makes quotes). A file is JSON \
        (an array of records, API pages with 'results', an object holding its records under a key, \
        the stations object, a GeoJSON FeatureCollection: each Feature's properties a record, placed \
        by its geometry), NDJSON (.ndjson, .jsonl: each line a record; lines of Features as a \
        FeatureCollection, GeoJSON text sequences too: .geojsons), CSV (.csv) or TSV (.tsv): by its extension, \
        else by its first bytes; 'as csv|tsv|json|ndjson' insists. A URL is read likewise, its \
        Content-Type (text/csv, text/tab-separated-values) before its extension. CSV's delimiter (, ; tab |) and \
        header row are sniffed, each column typed by all its cells (numbers, booleans, else text; \
        empty cells are absent). 'at data.items' names where an object keeps its records (else the \
        largest list of objects a few levels down is taken, and the load says which); 'key FIELD' \
        names the field show finds records by (else a file's id, key or uuid). NAME says which model \
        reads it: countries, species, planets, people, stations, or any other name for a generic \
        dataset. Ctrl-C cancels; a failed or cancelled load keeps the previous contents. \
        A postgresql:// (or postgres://) URL with ?table=[SCHEMA.]TABLE attaches a table or view \
        instead (as, at and key are refused: a table finds rows by its primary key): nothing is copied, and every command on it runs in the database (libpq's \
        PG* variables and ~/.pgpass apply). A password is never shown, and history keeps the \
        line without it.
        """
    )

    /// A known name is a dataset (a new one makes a generic dataset, so it is not an error).
    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        arguments.enumerated().map { index, word in
            let namesTheDataset = index == 0 && arguments.count > 1 && !arguments[1].isQuoted && keywords.contains(arguments[1].text.lowercased())
            if !word.isQuoted, !namesTheDataset, keywords.contains(word.text.lowercased()) { return ArgumentRole(word: index, role: .keyword) }
            if index == 0, session.catalog.contains(word.text) { return ArgumentRole(word: index, role: .dataset) }
            return ArgumentRole(word: index, role: word.isQuoted ? .string : .plain)
        }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        // `load ~/quotes.json` reads that file, as `load from ~/quotes.json` does: a word that
        // is no dataset's name and reads as a path or URL is the source, named after its file.
        let pathGiven = parsed[source].first == nil ? parsed[name].first.flatMap { namesASource($0.text, in: session) ? $0 : nil } : nil
        let named = pathGiven == nil ? parsed[name].first : nil
        var requests: [LoadRequest] = []
        var attached: [(any AttachedTable, Double)] = []
        if let source = parsed[source].first ?? pathGiven {
            let name = try named.map { try datasetName($0, arguments) }
            if let engine = session.engine(for: source.text) {
                // A table has its own types, rows and key: what would read a file differently is refused, not ignored.
                if let option = fileOption(parsed) {
                    throw arguments.usageError("as, at and key go with a file: a table's rows are found by its primary key, else an id, "
                                               + "key or uuid column (ALTER TABLE … ADD PRIMARY KEY (column) makes one)", at: option)
                }
                return try TableAttachment.attach(source.text, with: engine, as: name, in: session)
            }
            let parsedSource = try MapCommand.pointed(at: [source.word]) { try LoadSource.parse(source.text) }
            let chosen = name ?? parsedSource.suggestedName
            let options = LoadOptions(format: parsed[format].first.flatMap { LoadOptions.Format(rawValue: $0.text.lowercased()) },
                                      recordsAt: parsed[recordsAt].first?.text, key: parsed[key].first?.text)
            requests = [LoadRequest(name: chosen, source: parsedSource, model: DefaultDatasets.model(for: chosen), options: options)]
        } else if let named {
            if let option = fileOption(parsed) {
                throw arguments.usageError("as, at and key go with a file: load NAME from FILE as csv", at: option)
            }
            if session.catalog.table(named.text) != nil {
                return TableAttachment.summary(of: try TableAttachment.reattach([named.text], in: session), in: session)
            }
            guard let request = session.catalog.request(for: named.text) else {
                throw arguments.usageError("unknown dataset '\(SafeText.escape(named.text))' — to load a file: load PATH, or load NAME from PATH", at: named.word)
            }
            requests = [request]
        } else {
            requests = session.catalog.names.compactMap { session.catalog.request(for: $0) }
            attached = try TableAttachment.reattach(session.catalog.names, in: session)
        }
        // A load from a URL reads what the settings allow now, reloads included. Watched from
        // the start: this command reports every one of them, even one that ends before it is waited for.
        let loads = requests.map { request in
            var request = request
            request.bounds = session.settings.fetchBounds
            request.replacesRecords = (session.catalog.dataset(request.name)?.count ?? 0) > 0
            return session.catalog.load(request, watched: true)
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

    /// Whether `load WORD` means a file or URL rather than a dataset: WORD names no dataset,
    /// and has a slash, starts with ~ or ends in an extension load reads (.json, .csv…).
    static func namesASource(_ word: String, in session: Session) -> Bool {
        guard !session.catalog.contains(word) else { return false }
        return word.contains("/") || word.hasPrefix("~") || LoadOptions.Format.byExtension(word) != nil
    }

    /// The first of as, at and key given, as typed: a table refuses the option, so the caret
    /// goes under its keyword, not its value.
    static func fileOption(_ parsed: ParsedArguments) -> Word? {
        [format, recordsAt, key].lazy.compactMap { parsed.keyword($0) }.first
    }

    /// NAME as typed, checked: letters, digits, _ and -, starting with a letter; not `all`.
    static func datasetName(_ given: ArgumentValue, _ arguments: Arguments) throws -> String {
        let name = given.text.lowercased()
        guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }), name.first?.isLetter == true else {
            throw arguments.usageError("a dataset name is letters, digits, _ and -, starting with a letter", at: given.word)
        }
        guard name != "all" else { throw arguments.usageError("'all' is reserved for use all", at: given.word) }
        return name
    }

    /// One row per dataset loaded, at the prompt or with --verbose.
    static func summary(of datasets: [Dataset], in session: Session) -> CommandResult? {
        session.markAnnounced(datasets)
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
