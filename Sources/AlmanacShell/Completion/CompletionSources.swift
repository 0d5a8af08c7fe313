#if canImport(Glibc)
import Glibc
#endif
import AlmanacCore

/// The things arguments complete to, shared by every command that declares them.
enum CompletionSources {
    /// Dataset names (and `all` when asked).
    static func datasets(_ request: CompletionRequest, in session: Session, includingAll: Bool = false) -> [CompletionCandidate] {
        request.matching(session.catalog.names + (includingAll ? ["all"] : []))
    }

    /// Field paths of the results, without waiting for loads (a table's columns), and paths
    /// across their links (`homeworld.` → the planet's fields); a link takes no space after it,
    /// so a `.` may follow.
    static func fields(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        let source = session.completionSource()
        let paths = source.completionPaths(continuing: request.fragment)
        let links = Set(paths.filter(\.isLink).map(\.path))
        let fields = source.completionFields()
        let known = Set(fields)
        return request.matchingForgivingly(fields + paths.map(\.path).filter { !known.contains($0) }).map { candidate in
            links.contains(candidate.text) ? CompletionCandidate(candidate.text, appendSpace: false) : candidate
        }
    }

    /// `DATASET.FIELD` for link: the datasets' names, each with its `.` (no space: its field
    /// follows); after `NAME.` that dataset's fields (a table's columns from its catalog).
    static func datasetFields(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        guard let dot = request.fragment.firstIndex(of: ".") else {
            return request.matching(session.catalog.names).map { CompletionCandidate($0.text + ".", appendSpace: false) }
        }
        let name = request.fragment[..<dot].lowercased()
        let source: any ResultsSource
        if let table = session.catalog.table(name) {
            source = table.results()
        } else if let dataset = session.catalog.dataset(name) {
            source = MemoryResults(datasets: [dataset])
        } else {
            return []
        }
        let prefix = String(request.fragment[...dot])
        return request.matching(source.completionFields().map { prefix + $0 })
    }

    /// A field's values starting with the fragment, however many the field has
    /// (`filter region = <TAB>`, `filter countryTitle = Гер<TAB>`, `filter currencies.code = EU<TAB>`);
    /// a table's by a prefix query with a limit, given up after a moment.
    static func values(of field: String, _ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        request.matching(session.completionSource().completionValues(of: field, prefix: request.fragment, limit: tableLimit) ?? [])
    }

    /// Record names of the results starting with the fragment (folded); when none does, names
    /// with a word starting with it or one or two edits from it (`show kingdom`, `show
    /// norwya`). A dataset whose index is still being built offers nothing yet: TAB never makes
    /// the prompt wait. `include` narrows the names of datasets in memory (a trip's stations).
    static func recordNames(_ request: CompletionRequest, in session: Session, limit: Int = 100_000,
                            where include: ((Dataset, Int) -> Bool)? = nil) -> [CompletionCandidate] {
        let names: [String]
        if let include {
            let datasets = session.scopeNames.compactMap { session.catalog.dataset($0) }
            names = MemoryResults.names(in: datasets, prefix: request.fragment, limit: limit, where: include)
        } else {
            let source = session.completionSource()
            names = source.completionNames(prefix: request.fragment, limit: limit) ?? []
        }
        return names.map { CompletionCandidate($0) }
    }

    /// How many names or values TAB asks a table for.
    static let tableLimit = 200

    /// File and folder paths; folders end in `/` and take no space after them.
    static func files(_ request: CompletionRequest) -> [CompletionCandidate] {
        let fragment = request.fragment
        var directory = "."
        var prefix = fragment
        var shownDirectory = ""
        if let slash = fragment.lastIndex(of: "/") {
            shownDirectory = String(fragment[...slash])
            prefix = String(fragment[fragment.index(after: slash)...])
            directory = shownDirectory
            if directory.hasPrefix("~/"), let home = getenv("HOME") { directory = String(cString: home) + directory.dropFirst() }
        }
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var candidates: [CompletionCandidate] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            if name.hasPrefix("."), !prefix.hasPrefix(".") { continue }
            guard Folding.hasPrefix(name, prefix) else { continue }
            var status = stat()
            let isDirectory = stat(directory + "/" + name, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
            candidates.append(CompletionCandidate(shownDirectory + name + (isDirectory ? "/" : ""), appendSpace: !isDirectory))
        }
        return candidates.sorted { $0.text < $1.text }
    }

    /// A whole name typed as several words without quotes: the names starting with all of
    /// them (`show united k` → United Kingdom of …), replacing them all.
    static func wholeNames(_ given: [Word], _ request: CompletionRequest,
                           _ names: (CompletionRequest) -> [CompletionCandidate]) -> [CompletionCandidate] {
        guard let (whole, replacing) = request.continuing(given) else { return names(request) }
        return names(whole).map { candidate in
            var candidate = candidate
            candidate.replacing = replacing
            return candidate
        }
    }

    /// Stations serving the direction whose names start with the fragment (`trip from Каз`).
    static func stations(serving direction: Directions, _ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        guard let stations = session.catalog.dataset("stations"), let index = NameIndex.ifReady(stations) else { return [] }
        var candidates: [CompletionCandidate] = []
        for row in index.rows(withNamePrefix: request.fragment) where StationModel.directions(stations, row).contains(direction) {
            candidates.append(CompletionCandidate(stations.name(of: row)))
            if candidates.count >= 500 { break }
        }
        return candidates
    }

    /// The next part of a filter's condition, read as the parser reads it: a field or a
    /// function, an operator, a value of that field, or the word that joins another condition.
    static func condition(_ words: [Word], _ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        if words.isEmpty || !request.isQuoted && ExpressionCompletion.split(request.fragment).kept != "" {
            return ExpressionCompletion.names(request, in: session)
        }
        let tokens = ExpressionTokens.tokens(words.map { ($0.text, $0.isQuoted) })
        guard let last = tokens.last else { return [] }
        let comparisons = FilterExpression.Operator.allCases.map(\.rawValue) + ["=~"]
        if last.isSymbol, ExpressionTokens.comparisonSymbols.contains(last.text), tokens.count >= 2 {
            guard tokens[tokens.count - 2].kind == .word else { return [] }
            let narrowing = ValueCompletion.narrowing(Array(FilterExpression.tokens(words.map { ($0.text, $0.isQuoted) }).dropLast(2)))
            return ValueCompletion.values(of: tokens[tokens.count - 2].text, after: last.text, where: narrowing, request, in: session)
        }
        if last.isSymbol || [.open, .comma].contains(last.kind) || ["and", "or", "not"].contains(last.text.lowercased()) && last.kind == .word {
            return ExpressionCompletion.names(request, in: session)
        }
        if tokens.count >= 2, tokens[tokens.count - 2].isSymbol, ExpressionTokens.comparisonSymbols.contains(tokens[tokens.count - 2].text) {
            return request.matching(["and", "or"])
        }
        if last.isKeyword("is") { return request.matching(["not", "null"]) }
        if last.kind == .word || last.kind == .close { return request.matching(comparisons + ["is"]) }
        return []
    }

    /// `watch 5 …`: the commands watch runs; after one of them, its own completion, as if it
    /// were typed alone (`watch 5 group reg` → region).
    static func watched(_ given: [Word], _ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        guard let name = given.first else {
            let names = session.commands.commands.compactMap { command -> String? in
                WatchCommand.watches(command.spec) ? command.spec.name : nil
            }
            return request.matching(names)
        }
        guard let command = session.commands.lookup(name.text), WatchCommand.watches(command.spec),
              let start = request.words.lastIndex(where: { $0.column == name.column }) else { return [] }
        return command.complete(CompletionRequest(words: Array(request.words[start...]), fragment: request.fragment, isQuoted: request.isQuoted),
                                in: session)
    }
}
