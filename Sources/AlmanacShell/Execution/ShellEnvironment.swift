/// Where the shell keeps its files, resolved once from the environment at start.
public struct ShellEnvironment: Sendable, Equatable {
    /// The history file: `$ALMANAC_HISTORY`, else `$XDG_STATE_HOME/almanac/history`,
    /// else `~/.local/state/almanac/history`.
    public var historyPath: String
    /// The startup file: `$XDG_CONFIG_HOME/almanac/almanacrc`, else `~/.config/almanac/almanacrc`.
    public var startupFilePath: String
    /// The folder with the bundled datasets.
    public var dataDirectory: String

    public init(historyPath: String, startupFilePath: String, dataDirectory: String) {
        self.historyPath = historyPath
        self.startupFilePath = startupFilePath
        self.dataDirectory = dataDirectory
    }

    public static func resolve(_ variables: [String: String], dataDirectory: String?, defaultDataDirectory: String) -> ShellEnvironment {
        func nonEmpty(_ name: String) -> String? {
            guard let value = variables[name], !value.isEmpty else { return nil }
            return value
        }
        let home = nonEmpty("HOME") ?? "/"
        let state = nonEmpty("XDG_STATE_HOME") ?? home + "/.local/state"
        let config = nonEmpty("XDG_CONFIG_HOME") ?? home + "/.config"
        return ShellEnvironment(
            historyPath: nonEmpty("ALMANAC_HISTORY") ?? state + "/almanac/history",
            startupFilePath: config + "/almanac/almanacrc",
            dataDirectory: dataDirectory ?? nonEmpty("ALMANAC_DATA") ?? defaultDataDirectory
        )
    }
}
