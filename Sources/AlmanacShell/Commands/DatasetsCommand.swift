import AlmanacCore

/// `datasets`: each dataset's records, state, source, load time and warnings;
/// `datasets NAME` also lists its warnings.
public enum DatasetsCommand: Command {
    public static let spec = CommandSpec(
        name: "datasets",
        summary: "List the datasets: records, state, source, load time, warnings",
        usage: "datasets [NAME]",
        examples: ["datasets", "datasets species"]
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        request.arguments.isEmpty ? CompletionSources.datasets(request, in: session) : []
    }

    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        arguments.indices.map { ArgumentRole(word: $0, role: $0 == 0 ? .dataset : .plain) }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws {
        try arguments.expect(count: 0...1)
        session.startPendingLoads()  // it shows every dataset's state: none stays unstarted
        var statuses = session.catalog.statuses()
        if arguments.count == 1 {
            let name = arguments[0].lowercased()
            guard session.catalog.contains(name) else {
                throw ShellError.unknownDataset(arguments[0], among: session.catalog.names)
            }
            statuses = statuses.filter { $0.name == name }
        }
        let rows = statuses.map { status -> [String] in
            let state: String
            if let loading = status.loading {
                state = "loading " + (loading.fraction.map { "\(Int($0 * 100))%" } ?? "")
            } else if let failure = status.failure, status.dataset == nil || failure != .cancelled {
                state = failure == .cancelled ? "cancelled" : "failed: \(failure)"
            } else {
                state = status.dataset == nil ? "not loaded" : "loaded"
            }
            let dataset = status.dataset
            return [
                status.name, dataset.map { $0.count.grouped } ?? "", state, status.source.description,
                dataset.map { Duration.text($0.origin.seconds) } ?? "",
                dataset.map { String($0.warnings.count) } ?? "",
            ]
        }
        if session.settings.format.isMachineReadable {
            for row in rows { session.output.print(row.joined(separator: "\t")) }
        } else {
            let table = Table(columns: [.init("name"), .init("records", alignRight: true), .init("state"), .init("source"),
                                        .init("load time", alignRight: true), .init("warnings", alignRight: true)], rows: rows)
            session.output.print(table.render(width: session.output.terminal.isTerminal ? session.output.terminal.columns : nil,
                                              color: session.usesColor))
            session.output.print(session.environment.dataFolderLine)
        }
        if arguments.count == 1, let dataset = statuses.first?.dataset, !dataset.warnings.isEmpty {
            session.output.print()
            session.output.print("warnings:")
            for warning in dataset.warnings { session.output.print("  " + SafeText.escape(warning.description)) }
        }
    }
}
