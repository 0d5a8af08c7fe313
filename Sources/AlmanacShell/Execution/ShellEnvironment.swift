#if canImport(Glibc)
import Glibc
#endif
/// Where the shell keeps its files, resolved once from the environment at start.
public struct ShellEnvironment: Sendable, Equatable {
    /// The history file: `$ALMANAC_HISTORY`, else `$XDG_STATE_HOME/almanac/history`,
    /// else `~/.local/state/almanac/history`.
    public var historyPath: String
    /// The startup file: `$XDG_CONFIG_HOME/almanac/almanacrc`, else `~/.config/almanac/almanacrc`.
    public var startupFilePath: String
    /// The folder with the bundled datasets.
    public var dataDirectory: String
    /// Why that folder: `about` and `datasets` say it.
    public var dataOrigin: DataOrigin

    public init(historyPath: String, startupFilePath: String, dataDirectory: String, dataOrigin: DataOrigin = .option) {
        self.historyPath = historyPath
        self.startupFilePath = startupFilePath
        self.dataDirectory = dataDirectory
        self.dataOrigin = dataOrigin
    }

    /// The variables `resolve` reads.
    static let variableNames = ["HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "ALMANAC_DATA", "ALMANAC_HISTORY"]

    /// `fallbacks` are the data folders to use when neither `--data` nor `$ALMANAC_DATA` names
    /// one, best first: the first that exists wins, else the last. Made only then: finding the
    /// install's folder reads /proc/self/exe, which a start with `--data` need not wait for.
    public static func resolve(
        _ variables: [String: String], dataDirectory: String?, fallbacks: @autoclosure () -> [(String, DataOrigin)],
        exists: (String) -> Bool = ShellEnvironment.isFolder
    ) -> ShellEnvironment {
        func nonEmpty(_ name: String) -> String? {
            guard let value = variables[name], !value.isEmpty else { return nil }
            return value
        }
        let home = nonEmpty("HOME") ?? "/"
        let state = nonEmpty("XDG_STATE_HOME") ?? home + "/.local/state"
        let config = nonEmpty("XDG_CONFIG_HOME") ?? home + "/.config"
        let data: (String, DataOrigin)
        if let dataDirectory {
            data = (dataDirectory, .option)
        } else if let variable = nonEmpty("ALMANAC_DATA") {
            data = (variable, .environment)
        } else {
            let folders = fallbacks()
            data = folders.first { exists($0.0) } ?? folders.last ?? (".", .checkout)
        }
        return ShellEnvironment(
            historyPath: nonEmpty("ALMANAC_HISTORY") ?? state + "/almanac/history",
            startupFilePath: config + "/almanac/almanacrc",
            dataDirectory: data.0,
            dataOrigin: data.1
        )
    }

    /// `data: FOLDER (why)`, as `about` and `datasets` show it.
    public var dataFolderLine: String { "data: \(SafeText.escape(dataDirectory)) (\(dataOrigin.rawValue))" }

    /// stat, as FileManager's fileExists(atPath:isDirectory:) does (symlinks followed);
    /// FileManager.default's set-up was 13 of `almanac -c quit`'s page faults.
    public static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}

/// Which rule chose the data folder, in the order they are tried.
public enum DataOrigin: String, Sendable, Equatable {
    case option = "--data"
    case environment = "$ALMANAC_DATA"
    case installed = "installed with almanac"
    case checkout = "this checkout's Data"
}
