import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// `watch SECONDS [--count N] COMMAND…`: in a script N answers one after another; at the
/// prompt one frame redrawn in place, with what changed, until Ctrl-C.
@Suite("watch")
struct WatchCommandTests {
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func run(_ arguments: [String]) throws -> PipeResult {
        try PipeRun.run(["--no-rc"] + arguments, environment: home.environment(), directory: home.root)
    }

    @Test("in a script: --count N answers, each printed")
    func scriptRunsCountTimes() throws {
        let species = ValueReadingTests.records("species").count
        let counted = try run(["--format", "csv", "-c", "use species", "-c", "watch 0.1 --count 3 count"])
        #expect(counted.status == 0 && counted.stderr.isEmpty, "\(counted)")
        #expect(counted.stdout == String(repeating: "count\n\(species)\n", count: 3), "\(counted)")
        let pages = try run(["--format", "json", "-c", "use species", "-c", "set pagesize 2", "-c", "watch 0.1 --count 2 page"])
        #expect(try JSONDocuments.split(pages.stdout).map { ($0 as? [Any])?.count } == [2, 2], "\(pages)")
    }

    @Test("errors say what is wrong", arguments: [
        ("watch 1 count", "-c:1: in a script, say how many runs: watch 1 --count N count…"),
        ("watch 1 --count 2 filter name = x", "-c:1:19: watch runs a command that answers (count, page, group, show…), not filter"),
        ("watch soon count", "-c:1:7: SECONDS is a number from 0.1 to 86400, not 'soon'"),
        ("watch 0 --count 1 count", "-c:1:7: SECONDS is a number from 0.1 to 86400, not '0'"),
        ("watch 1 --count 0 count", "-c:1:17: N must be a whole number from 1 up, not '0'"),
        ("watch 1 --count 2 wat", "-c:1:19: unknown command 'wat'"),
    ])
    func errors(_ line: String, _ message: String) throws {
        let result = try run(["-c", line])
        #expect(result.status == 1 && result.stdout.isEmpty && result.stderr.hasPrefix(message), "\(result)")
    }

    /// A terminal session watching `command` every 0.3 s over `records` written to `file` and loaded as `name`.
    func watching(_ command: String, _ records: String, in file: String, as name: String) throws -> PseudoTerminalSession {
        try records.write(toFile: file, atomically: true, encoding: .utf8)
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 100)
        do {
            try session.waitForPrompt()
            try session.enter("set pager off")
            try session.enter("load \(name) from \(file)")
            try session.enter("use \(name)", prompt: "\(name)> ")
            try session.sendLine("watch 0.3 \(command)")
        } catch {
            session.close()
            throw error
        }
        return session
    }

    @Test("at the prompt: redrawn in place, changes shown when the file changes, Ctrl-C stops and keeps the last frame")
    func redrawnInPlace() throws {
        let file = home.root + "/q.json"
        let session = try watching("count", #"[{"name":"a","n":1},{"name":"b","n":2}]"#, in: file, as: "q")
        defer { session.close() }
        let headers = { (screen: TerminalScreen) in screen.lines.filter { $0.hasPrefix("every 0.3 s: count · ") } }
        var screen = try session.waitForScreen("run 3") { headers($0).first?.contains("· run 3 ·") == true }
        #expect(headers(screen).count == 1, "one frame, drawn over\n\(screen.lines.joined(separator: "\n"))")
        #expect(screen.lines.contains("2"))
        #expect(screen.lines.contains("no change since run 1"))

        try #"[{"name":"a","n":1},{"name":"b","n":2},{"name":"c","n":3}]"#.write(toFile: file, atomically: true, encoding: .utf8)
        screen = try session.waitForScreen("the new count and what changed") { $0.lines.contains("~ count 2 → 3 (+1)") }
        #expect(headers(screen).count == 1, "\(screen.lines.joined(separator: "\n"))")
        #expect(screen.lines.contains("3") && !screen.lines.contains("2"), "\(screen.lines.joined(separator: "\n"))")

        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        screen = session.screen
        #expect(headers(screen).count == 1 && screen.lines.contains("~ count 2 → 3 (+1)"), "the last frame stays\n\(screen.lines.joined(separator: "\n"))")
        #expect(!screen.lines.contains { $0.contains("cancelled") || $0.contains("error") }, "\(screen.lines.joined(separator: "\n"))")
        #expect(try session.enter("count").lines.contains("3"), "the prompt works on")
    }

    @Test("a changed share is told as the decimals shown: 80 → 66.7 (-13.3), not -13.299999999999997")
    func changedSharesInDecimals() throws {
        let file = home.root + "/k.json"
        let session = try watching("group k", #"[{"k":"a"},{"k":"a"},{"k":"a"},{"k":"a"},{"k":"b"}]"#, in: file, as: "k")
        defer { session.close() }
        try session.waitForScreen("run 2") { Self.headers($0, "group k").first?.contains("· run 2 ·") == true }
        // a: 4 of 5 (80%) → 4 of 6 (66.7%); b: 1 of 5 (20%) → 2 of 6 (33.3%).
        try #"[{"k":"a"},{"k":"a"},{"k":"a"},{"k":"a"},{"k":"b"},{"k":"b"}]"#.write(toFile: file, atomically: true, encoding: .utf8)
        let screen = try session.waitForScreen("the changed shares") { $0.lines.contains { $0.hasPrefix("~ a: ") } }
        let lines = screen.lines.joined(separator: "\n")
        #expect(screen.lines.contains("~ a: percent 80 → 66.7 (-13.3)"), "\(lines)")
        #expect(screen.lines.contains("~ b: count 1 → 2 (+1), percent 20 → 33.3 (+13.3)"), "\(lines)")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
    }

    /// The screen's watch frames for `command`: their header lines.
    static func headers(_ screen: TerminalScreen, _ command: String) -> [String] {
        screen.lines.filter { $0.hasPrefix("every 0.3 s: \(command) · ") }
    }

    @Test("a dataset from an http URL is loaded again before each run")
    func urlSourceReloads() throws {
        let folder = home.root + "/served"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #"[{"name":"a"},{"name":"b"}]"#.write(toFile: folder + "/q.json", atomically: true, encoding: .utf8)
        let server = try StaticServer(folder: folder)
        defer { server.stop() }
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 100)
        defer { session.close() }
        try session.waitForPrompt()
        try session.enter("load q from http://127.0.0.1:\(server.port)/q.json")
        try session.enter("use q", prompt: "q> ")
        try session.sendLine("watch 0.3 count")
        try session.waitForScreen("run 2") { Self.headers($0, "count").first?.contains("· run 2 ·") == true }
        try #"[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"d"}]"#.write(toFile: folder + "/q.json", atomically: true, encoding: .utf8)
        let screen = try session.waitForScreen("the count from the server again") { $0.lines.contains("~ count 2 → 4 (+2)") }
        #expect(Self.headers(screen, "count").count == 1, "\(screen.lines.joined(separator: "\n"))")
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
    }

    @Test("an attached table is asked again each run: rows inserted meanwhile show as new")
    func tableAskedAgain() throws {
        try Database.cluster().execute("DROP TABLE IF EXISTS watched; CREATE TABLE watched (id int PRIMARY KEY, name text); INSERT INTO watched VALUES (1, 'one'), (2, 'two')")
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 100)
        defer { session.close() }
        try session.waitForPrompt()
        try session.enter("load w from \(try Database.url("watched"))")
        try session.enter("use w", prompt: "w> ")
        try session.sendLine("watch 0.3 page")
        try session.waitForScreen("run 2") { Self.headers($0, "page").first?.contains("· run 2 ·") == true }
        try Database.cluster().execute("INSERT INTO watched VALUES (3, 'three'); UPDATE watched SET name = 'uno' WHERE id = 1")
        let screen = try session.waitForScreen("the new row") { $0.lines.contains { $0.hasPrefix("changed since the last run: 2 new, 1 removed") || $0.hasPrefix("unchanged since run") } }
        let lines = screen.lines
        #expect(lines.contains("+ three, id 3") && lines.contains("+ uno, id 1") && lines.contains("- one, id 1"), "\(lines.joined(separator: "\n"))")
        #expect(Self.headers(screen, "page").count == 1)
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
    }
}

/// python3's http.server on a free local port, serving a folder.
final class StaticServer {
    let process = Process()
    let port: Int

    init(folder: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """, folder]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw HarnessError("the HTTP server did not say its port") }
        self.port = port
    }

    /// SIGKILL: a child of the test process may have SIGTERM blocked.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
