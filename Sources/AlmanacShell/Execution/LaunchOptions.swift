/// What the command line asked for, already parsed (the executable uses ArgumentParser).
public struct LaunchOptions: Sendable, Equatable {
    /// `-c` and `-f`, run in the order given (as psql runs them).
    public var scripts: [ScriptSource] = []
    public var format: OutputFormat?
    public var dataDirectory: String?
    public var bail = false
    /// `--echo`: every shaping command's listing in a script, not only the last command's.
    public var echo = false
    public var interactive = false
    public var noColor = false
    public var noStartupFile = false
    public var quiet = false
    public var verbose = false

    public init() {}
}

/// One `-c COMMANDS` or `-f FILE` of the command line.
public enum ScriptSource: Sendable, Equatable {
    case command(String)
    case file(String)
}
