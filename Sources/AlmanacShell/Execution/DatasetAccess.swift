import AlmanacCore

/// How commands get at datasets: the ones in scope, waited for when still loading.
extension Session {
    /// The names the current scope spans: the dataset in use, or every dataset.
    public var scopeNames: [String] {
        if let currentName, currentName != "all" { return [currentName] }
        return catalog.names
    }

    /// The datasets in scope, waiting for any still loading (with a progress bar on a
    /// terminal). Under `use all`, datasets that failed to load are left out. `awaitingLinked`:
    /// false when no field is read, so the datasets the records link into need not be there.
    public func datasetsInScope(awaitingLinked: Bool = true) throws -> [Dataset] {
        let names = scopeNames
        if names.count == 1 {
            let dataset = try dataset(names[0])
            if awaitingLinked { try awaitLinked(by: [dataset]) }
            return [dataset]
        }
        // All at once, on both cores, rather than one after another as each is waited for.
        for name in names { catalog.start(name) }
        var datasets: [Dataset] = []
        for name in names {
            do {
                datasets.append(try dataset(name))
            } catch {
                if !isInteractive, verbose, let failure = catalog.statuses().first(where: { $0.name == name })?.failure,
                   announcedFailures.insert("\(name)\u{0}\(failure)").inserted {
                    output.message("\(name): load failed: \(SafeText.escape("\(failure)"))")
                }
            }
            try cancellation.checkpoint()
        }
        guard !datasets.isEmpty else { throw ShellError.invalid("no dataset is loaded — 'datasets' shows why") }
        return datasets
    }

    /// Waits for the loads of the datasets `datasets` link into (people's homeworld reads
    /// planets), so a query reads names, not the links, and a path crosses its links (through
    /// further links too); one that failed is read without.
    private func awaitLinked(by datasets: [Dataset]) throws {
        var names = Set(datasets.flatMap { $0.model.linkedDatasets })
        var next = datasets.map(\.name)
        while let name = next.popLast() {
            for link in catalog.links(from: name) where names.insert(link.to).inserted { next.append(link.to) }
        }
        for name in names where catalog.contains(name) && catalog.table(name) == nil {
            _ = try? dataset(name)
            try cancellation.checkpoint()
        }
    }

    /// The dataset `name`, waiting for its load when one is running.
    public func dataset(_ name: String) throws -> Dataset {
        guard catalog.contains(name) else {
            throw ShellError.unknownDataset(name, among: catalog.names)
        }
        catalog.start(name)
        if let load = catalog.activeLoad(name) {
            try wait(for: load)
        }
        if let dataset = catalog.dataset(name) {
            announceUse(of: dataset)
            return dataset
        }
        if let table = catalog.table(name) {
            throw ShellError.invalid("\(name.lowercased()) is a table in \(table.system) (attached, not loaded), and this command needs "
                + "its records in memory — narrow it, 'export FILE', and load that")
        }
        let reason = catalog.statuses().first { $0.name == name.lowercased() }?.failure.map { "\($0)" } ?? "not loaded"
        throw ShellError.invalid("\(name) is not loaded: \(reason)")
    }

    /// A --verbose script says what each load it uses brought (its summary and warnings, on
    /// standard error), once, when a command first reads it: in the order the commands read
    /// them, whenever the loads ended. (At the prompt, loads are announced as they end.)
    func announceUse(of dataset: Dataset) {
        guard !isInteractive, verbose, announcedLoads.insert(ObjectIdentifier(dataset)).inserted else { return }
        output.message(LoadSummary.line(for: dataset))
        if let warnings = LoadSummary.warnings(for: dataset) { output.message(warnings) }
    }

    /// Datasets whose load a command reported itself (`load`): not again when used.
    func markAnnounced(_ datasets: [Dataset]) {
        for dataset in datasets { announcedLoads.insert(ObjectIdentifier(dataset)) }
    }

    /// Waits for a load, drawing its progress; Ctrl-C cancels the load (the previous contents
    /// stay) and fails the command.
    public func wait(for load: ActiveLoad) throws {
        load.markWatched()
        let bar = ProgressBar(name: load.request.name)
        let showBar = isInteractive && output.errorIsTerminal
        // Keys typed meanwhile wait for the prompt instead of landing after the bar.
        var typeahead = showBar ? Typeahead() : nil
        defer {
            bar.clear()
            typeahead?.end()
        }
        while !load.isFinished {
            if cancellation.isCancelled {
                load.cancel()
                bar.clear()
                throw ShellError.invalid("loading \(load.request.name) cancelled\(keptContents(of: load.request.name))")
            }
            notifier.wait(milliseconds: 50)
            if showBar { bar.update(load.progress.snapshot, width: output.terminal.columns) }
        }
    }

    /// ` — the previous contents stay (4,037 stations…)` after a load that did not replace them,
    /// or ` — countries loads from …/countries.json again` when it replaced the first load.
    func keptContents(of name: String) -> String {
        if let dataset = catalog.dataset(name) { return " — the previous contents stay (\(dataset.model.summary(of: dataset)))" }
        if let again = catalog.activeLoad(name) { return " — \(name) loads from \(SafeText.excerpt(again.request.source.description, limit: 200)) again" }
        return ""
    }
}
