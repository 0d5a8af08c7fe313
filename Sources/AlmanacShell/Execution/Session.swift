import AlmanacCore

/// Everything a command can reach: the catalog, the settings, the output, the history.
/// Owned by the main thread; commands run one at a time.
public final class Session {
    public let commands: CommandTable
    public let output: Output
    public var settings: Settings
    /// The settings `set` knows: the standard table unless one was given, made when first
    /// asked for (not at every start: `almanac -c quit` never needs it).
    public var settingTable: SettingTable { givenSettingTable ?? .standard }
    private let givenSettingTable: SettingTable?
    public let environment: ShellEnvironment
    /// The history of an interactive session; nil in scripts, which never write history.
    public var history: HistoryStore?
    public let isInteractive: Bool
    public var verbose = false
    public var quiet = false
    /// Loads a --verbose script has summarised (see `DatasetAccess.announceUse`).
    var announcedLoads = Set<ObjectIdentifier>()
    var announcedFailures = Set<String>()
    public let interruption = Interruption()
    /// The shared datasets.
    public let catalog: Catalog
    /// Wakes waits on Ctrl-C, and carries messages from background loads to the prompt.
    public let notifier: Notifier
    /// The dataset in use (`use NAME`); nil or "all" spans every dataset.
    public var currentName: String?
    /// The current results once a step shaped them (or a page was shown): in memory or in a
    /// database; nil: every record of the scope (see `results()`).
    public var source: (any ResultsSource)?
    /// Which attached table `source` asks, so a table attached again starts afresh.
    var tableIdentity: ObjectIdentifier?
    /// The rows of the table of countries geography commands last read (`GeoAnswer.countries`).
    var countryRows: CountryRows?
    /// The engines of tables attached from URLs (`postgresql://…`).
    public let engines: [any TableEngine]
    /// Columns chosen with `columns`, per dataset.
    public var chosenColumns: [String: [String]] = [:]
    /// What `back` undoes, the last change last.
    public var undoable: [Undoable] = []
    /// The lines that built the current results, for `save`.
    public var commandLog = CommandLog()
    /// Whether the note that `back` forgets the oldest changes was given.
    var saidUndoIsBounded = false
    /// The last `group` listing while it is the last listing shown (`show #N` drills into it).
    public var lastGroups: GroupAnswer?
    /// The table of the last describe, histogram or path while it is the last answer shown:
    /// export writes it, as it writes the groups after group.
    public var lastSummary: ShownSummary?
    /// Whether the command running is a script's shaping command whose listing waits to be
    /// the last answer (`ScriptAnswer`): its listing is made only if written.
    var listingWaits = false
    /// The page of `results` last shown (1-based).
    public var page = 1
    /// Starts every dataset registered in the catalog and not loading yet: at the prompt, all
    /// of them load in the background; commands that show every dataset need them all.
    public func startPendingLoads() { catalog.startDeferred() }
    /// Commands saved by `edit` in the user's editor, run by the prompt after the current line.
    public var editedCommands: [String] = []
    /// Set by `quit`: the session ends after the current line.
    public var shouldQuit = false
    /// The cancellation of the command now running.
    public private(set) var cancellation = Cancellation.never

    public init(
        commands: CommandTable = .standard, output: Output, settings: Settings,
        environment: ShellEnvironment, isInteractive: Bool, catalog: Catalog = Catalog(), notifier: Notifier = Notifier(),
        engines: [any TableEngine] = Engines.standard, settingTable: SettingTable? = nil
    ) {
        self.givenSettingTable = settingTable
        self.engines = engines
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

    /// Runs one command with a fresh cancellation, and writes its answer in the format set.
    func run(_ command: any Command.Type, _ arguments: Arguments) throws {
        if let result = try perform(command, arguments) { render(result) }
    }

    /// Runs one command with a fresh cancellation and returns its answer, unwritten.
    func perform(_ command: any Command.Type, _ arguments: Arguments) throws -> CommandResult? {
        // A script loads only what it uses (`dataset(_:)` starts each on demand); a person at
        // the prompt gets every dataset loading in the background.
        if isInteractive { startPendingLoads() }
        cancellation = interruption.cancellationFromNow()
        output.beginCommand(cancellation: cancellation)
        defer { cancellation = .never }
        return try command.run(arguments, in: self)
    }

    /// Lists page `page` of the current results now, with a fresh cancellation: a script's held
    /// listing, made when it is written.
    func listCurrent(page: Int) throws -> CommandResult {
        cancellation = interruption.cancellationFromNow()
        defer { cancellation = .never }
        return try list(try results(), page: page)
    }

    /// Writes a result in the format set, to standard output.
    public func render(_ result: CommandResult) {
        settings.format.renderer.render(result, to: output, context: renderContext)
        if let note = result.writtenNote { output.message(note) }
    }

    var renderContext: RenderContext {
        RenderContext(width: output.terminal.isTerminal && !settings.format.isMachineReadable ? output.terminal.columns : nil,
                      color: usesColor, expanded: settings.expanded, format: settings.format)
    }
}
