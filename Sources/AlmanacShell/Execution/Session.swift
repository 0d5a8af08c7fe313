import AlmanacCore

/// Everything a command can reach: the catalog, the settings, the output, the history.
/// Owned by the main thread; commands run one at a time.
public final class Session {
    public let commands: CommandTable
    public let output: Output
    public var settings: Settings
    public let environment: ShellEnvironment
    /// The history of an interactive session; nil in scripts, which never write history.
    public var history: HistoryStore?
    public let isInteractive: Bool
    public var verbose = false
    public var quiet = false
    public let interruption = Interruption()
    /// The shared datasets.
    public let catalog: Catalog
    /// Wakes waits on Ctrl-C, and carries messages from background loads to the prompt.
    public let notifier: Notifier
    /// The dataset in use (`use NAME`); nil or "all" spans every dataset.
    public var currentName: String?
    /// The current result set, from the last search, filter or sort; nil means every record.
    public var results: ResultSet?
    /// The page of `results` last shown (1-based).
    public var page = 1
    /// Loads to start once the session is up (see `startPendingLoads`).
    public var pendingLoads: [LoadRequest] = []

    /// Starts the loads waiting to start; later calls do nothing.
    public func startPendingLoads() {
        let requests = pendingLoads
        pendingLoads = []
        for request in requests { catalog.load(request) }
    }
    /// Commands saved by `edit` in the user's editor, run by the prompt after the current line.
    public var editedCommands: [String] = []
    /// Set by `quit`: the session ends after the current line.
    public var shouldQuit = false
    /// The cancellation of the command now running.
    public private(set) var cancellation = Cancellation.never

    public init(
        commands: CommandTable = .standard, output: Output, settings: Settings,
        environment: ShellEnvironment, isInteractive: Bool, catalog: Catalog = Catalog(), notifier: Notifier = Notifier()
    ) {
        self.catalog = catalog
        self.notifier = notifier
        self.commands = commands
        self.output = output
        self.settings = settings
        self.environment = environment
        self.isInteractive = isInteractive
    }

    /// The name the prompt shows: `almanac` until a dataset is in use.
    public var promptName: String { currentName ?? "almanac" }

    /// Links between datasets, waiting for a linked dataset that is still loading.
    public var links: Links { Links { [unowned self] name in try? self.dataset(name) } }

    /// Whether colour escapes may be written to standard output now.
    public var usesColor: Bool { settings.color && output.terminal.isTerminal && !settings.format.isMachineReadable }

    /// Runs one command with a fresh cancellation.
    func run(_ command: any Command.Type, _ arguments: Arguments) throws {
        startPendingLoads()
        cancellation = interruption.cancellationFromNow()
        defer { cancellation = .never }
        try command.run(arguments, in: self)
    }
}
