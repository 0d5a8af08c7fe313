/// What the command line asked for, already parsed (the executable uses ArgumentParser).
public struct LaunchOptions: Sendable, Equatable {
    /// `-c`: commands to run, in order.
    public var commands: [String] = []
    /// `-f`: script files to run after the commands.
    public var files: [String] = []
    public var format: OutputFormat?
    public var dataDirectory: String?
    public var bail = false
    public var interactive = false
    public var noColor = false
    public var noStartupFile = false
    public var quiet = false
    public var verbose = false

    public init() {}
}
