import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh folder that stands in for the user's home: `home/`, `state/` (XDG_STATE_HOME) and
/// `config/` (XDG_CONFIG_HOME) inside one `mkdtemp` folder, removed when this is released.
final class TemporaryHome: Sendable {
    /// The mkdtemp folder that holds everything.
    let root: String
    let home: String
    let stateHome: String
    let configHome: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/almanac-e2e.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HarnessError("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        root = URL(fileURLWithPath: String(cString: made)).standardizedFileURL.path
        home = root + "/home"
        stateHome = root + "/state"
        configHome = root + "/config"
        for folder in [home, stateHome, configHome] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Where the shell keeps its history with this home's XDG_STATE_HOME.
    var historyPath: String { stateHome + "/almanac/history" }

    /// Where the shell looks for its startup file with this home's XDG_CONFIG_HOME.
    var startupFilePath: String { configHome + "/almanac/almanacrc" }

    /// Writes the startup file.
    func writeStartupFile(_ text: String) throws {
        try write(text, to: startupFilePath)
    }

    /// Writes `text` to `path` (absolute, or relative to `root`), making folders as needed.
    /// Returns the absolute path.
    @discardableResult
    func write(_ text: String, to path: String) throws -> String {
        let absolute = path.hasPrefix("/") ? path : root + "/" + path
        let folder = URL(fileURLWithPath: absolute).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: absolute))
        return absolute
    }

    /// Makes the folder `name` inside `root` (an export destination, say); returns its path.
    func makeFolder(_ name: String) throws -> String {
        let folder = root + "/" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The file's text, or nil when it does not exist.
    func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The permission bits of `path` (e.g. 0o600), or nil when it cannot be stat'ed.
    func permissions(of path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o7777
    }

    /// Every file below `root`, relative to it, for "nothing was written" checks.
    func allFiles() -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let next = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + next, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(next)
            }
        }
        return files.sorted()
    }

    /// The environment a user with this home would start almanac with.
    func environment() -> TestEnvironment { TestEnvironment(home: self) }
}
