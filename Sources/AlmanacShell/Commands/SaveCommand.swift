import AlmanacCore
import Foundation

/// `save FILE [--force]` writes the session's working commands as a script: the lines that
/// built the current results, which `almanac -f FILE` replays (`CommandLog`).
public enum SaveCommand: Command {
    static let file = Parameter("FILE", .text(.files))
    static let force = Parameter.flag("--force")

    public static let spec = CommandSpec(
        name: "save",
        summary: "Write the commands that built the current results to a script (almanac -f FILE replays it)",
        parameters: [file, force],
        examples: ["save europe.almanac", "save europe.almanac --force"],
        discussion: """
        The script holds the load, link, use, search, filter, sort, limit, columns and set lines that \
        made the current results (a drill-down as its group and show #N), in order, without those \
        that failed or that back undid, without passwords in URLs (give them again with \
        PGPASSWORD or ~/.pgpass), and with a file loaded by a relative path named by its absolute \
        path, so it replays from any folder. An existing file is replaced only with --force; the file \
        appears whole or not at all.
        """
    )

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        guard var path = parsed[Self.file].first?.text else { throw arguments.usageError() }
        if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] { path = home + path.dropFirst() }
        let log = session.commandLog
        var text = "# almanac \(AlmanacVersion.current): replay with  almanac -f \(Self.quoted(path))\n"
        if log.leftOutPassword { text += "# passwords were left out of URLs: give them with PGPASSWORD or ~/.pgpass\n" }
        text += log.lines.map { $0 + "\n" }.joined()
        try AtomicFile.write(Array(text.utf8), to: path, overwrite: parsed.has(Self.force), cancellation: session.cancellation)
        guard session.isInteractive || session.verbose else { return nil }
        let count = log.lines.count
        let saved = ResultTable(columns: [ResultColumn("commands", .integer), ResultColumn("path")], rows: [[.integer(count), .text(path)]])
        return CommandResult(saved, shape: .object,
                             prose: .lines(["saved \(count) command\(count == 1 ? "" : "s") to \(SafeText.escape(path))"]))
    }

    /// A path as a shell reads it back.
    private static func quoted(_ path: String) -> String {
        path.allSatisfy { $0.isLetter || $0.isNumber || "/._-~+".contains($0) } ? path : "'" + path.replacing("'", with: "'\\''") + "'"
    }
}
