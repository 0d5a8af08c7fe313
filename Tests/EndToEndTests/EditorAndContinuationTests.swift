import Foundation
import Testing

/// Ctrl-X Ctrl-E and `edit` (the user's editor writes the commands to run) and lines that
/// continue with `\`. The editor is a script that keeps what it was given and saves what the
/// test says.
@Suite("The editor and continued lines", .serialized)
struct EditorAndContinuationTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    var received: String { home.root + "/received.txt" }

    /// An editor that keeps the file it is given in `received.txt`, then saves `saving` in it
    /// (or exits with `status`).
    func editor(saving: String, status: Int = 0) throws -> String {
        try home.write(saving, to: "to-save.txt")
        let script = try home.write("""
            #!/bin/sh
            cp "$1" '\(received)'
            cat '\(home.root)/to-save.txt' > "$1"
            exit \(status)
            """, to: "editor.sh")
        chmod(script, 0o755)
        return script
    }

    func start(editor: String?, variable: String = "EDITOR", history: [String] = []) throws -> PseudoTerminalSession {
        if !history.isEmpty { try home.write(history.map { $0 + "\n" }.joined(), to: home.historyPath) }
        var environment = home.environment()
        if let editor { environment = environment.with(variable, editor) }
        let session = try PseudoTerminalSession(environment: environment, rows: 40, columns: 100)
        try session.waitForPrompt()
        return session
    }

    func historyLines() -> [String] { home.read(home.historyPath)?.lines ?? [] }

    func leave(_ session: PseudoTerminalSession) throws {
        session.skipReceived()
        try session.send(Key.ctrlC)
        try session.waitForPrompt()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
    }

    static let prompt = PseudoTerminalSession.prompt

    /// VmHWM of `pid`, in bytes.
    static func peak(of pid: pid_t) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
    }
    static let ctrlXCtrlE = "\u{18}\u{05}"

    // MARK: - Ctrl-X Ctrl-E

    @Test("Ctrl-X Ctrl-E opens $EDITOR on the line; each saved line runs as a command and goes into the history")
    func ctrlXCtrlE() throws {
        let session = try start(editor: try editor(saving: "set pagesize 17\nset \\\n   pagesize\n\n"))
        try session.send("help abo")
        try session.waitForScreen("the half-typed line") { $0.beforeCursor == Self.prompt + "help abo" }
        try session.send(Self.ctrlXCtrlE)
        try session.waitFor("\n17\n")
        try session.waitForPrompt()
        #expect(home.read(received) == "help abo\n", "the editor got the line")
        let screen = session.screen
        #expect(Array(screen.lines.suffix(from: screen.cursorRow - 4)) == [
            Self.prompt + "help abo", Self.prompt + "set pagesize 17", Self.prompt + "set pagesize", "17", "almanac>",
        ], "\(screen.lines.suffix(6))")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
        #expect(historyLines() == ["set pagesize 17", "set pagesize"], "the commands, not the half-typed line")
    }

    @Test("on an empty line it edits the last command; $VISUAL comes before $EDITOR")
    func emptyLineEditsLastCommand() throws {
        let visual = try editor(saving: "set pagesize\n")
        let session = try start(editor: visual, variable: "VISUAL", history: ["set pagesize 5"])
        try session.enter("set pagesize 23")
        try session.send(Self.ctrlXCtrlE)
        try session.waitFor("\n23\n")
        try session.waitForPrompt()
        #expect(home.read(received) == "set pagesize 23\n")
        try leave(session)
    }

    @Test("an empty file runs nothing; an editor that fails runs nothing and says so")
    func nothingToRun() throws {
        let session = try start(editor: try editor(saving: ""))
        try session.send("set pagesize 9" + Self.ctrlXCtrlE)
        try session.waitForPrompt()
        #expect(try session.enter("set pagesize").contains("auto"), "nothing ran")
        try leave(session)

        let failing = try start(editor: try editor(saving: "set pagesize 9\n", status: 3))
        try failing.send("set pagesize 7" + Self.ctrlXCtrlE)
        try failing.waitFor("exited with status 3 — nothing was run")
        try failing.waitForPrompt()
        #expect(try failing.enter("set pagesize").contains("auto"))
        try leave(failing)
    }

    // MARK: - edit

    @Test("`edit` opens the command before it and runs what is saved")
    func editCommand() throws {
        let session = try start(editor: try editor(saving: "set pagesize 31\nset pagesize\n"))
        try session.enter("set pagesize 8")
        try session.sendLine("edit")
        // Each command is shown as it runs, after the prompt (so the prompt is no sign of the end).
        try session.waitFor("\n31\n")
        try session.waitForPrompt()
        let screen = session.screen
        #expect(Array(screen.lines.suffix(from: screen.cursorRow - 4)) == [
            Self.prompt + "edit", Self.prompt + "set pagesize 31", Self.prompt + "set pagesize", "31", "almanac>",
        ], "\(screen.lines.suffix(6))")
        #expect(home.read(received) == "set pagesize 8\n")
        try leave(session)
        #expect(historyLines() == ["set pagesize 8", "edit", "set pagesize 31", "set pagesize"])
    }

    @Test("a saved line over 1 MiB runs nothing, is neither echoed nor kept in history, and costs no more than a few times the file")
    func hugeEditedLine() throws {
        // A 40 MB line (the editor wrote 300 MB: 924 MB peak, all of it echoed and kept).
        let script = try home.write("""
            #!/bin/sh
            { printf 'set pagesize 31\\n'; head -c 40000000 /dev/zero | tr '\\0' x; printf '\\nset pagesize 5\\n'; } > "$1"
            """, to: "huge-editor.sh")
        chmod(script, 0o755)
        let session = try start(editor: script)
        try session.enter("set pagesize 8")
        let answer = try session.enter("edit", timeout: .seconds(60))
        #expect(answer.contains("line 2 of what you saved is longer than 1 MiB, the limit for a command line — nothing was run"),
                "\(answer.visible.suffix(400))")
        #expect(answer.utf8.count < 10_000, "nothing of it echoed: \(answer.utf8.count) bytes")
        #expect(try session.enter("set pagesize").contains("8"), "nothing ran")
        let peak = Self.peak(of: session.pid)
        #expect(peak < 150 << 20, "peak \(peak >> 20) MB")
        ReliabilityLog.record("edit of a 40 MB line, peak", "\(peak >> 20) MB")
        try leave(session)
        #expect(historyLines() == ["set pagesize 8", "edit", "set pagesize"], "\(historyLines().map { $0.prefix(40) })")
    }

    @Test("`edit` in a script is an error")
    func editInScript() throws {
        let result = try PipeRun.run([], input: "edit\n", environment: home.environment().with("EDITOR", "/bin/false"), directory: home.root)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("stdin:1: edit needs the prompt"), "\(result)")
    }

    // MARK: - Continued lines

    @Test("a line ending in \\ continues at ...> ; the command runs whole and is one history entry")
    func continuation() throws {
        let session = try start(editor: nil)
        try session.sendLine("set \\")
        try session.waitFor("...> ")
        try session.waitUntilReady()
        try session.sendLine("pagesize \\")
        try session.waitFor("...> ")
        try session.waitUntilReady()
        let shown = try session.enter("   12")
        #expect(!shown.contains("error"), "\(shown.visible)")
        #expect(try session.enter("set pagesize").contains("12"))
        // Ctrl-C on a continuation line abandons the whole command.
        try session.sendLine("set pagesize \\")
        try session.waitFor("...> ")
        try session.waitUntilReady()
        try session.send("40" + Key.ctrlC)
        try session.waitForPrompt()
        #expect(try session.enter("set pagesize").contains("12"))
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
        #expect(historyLines() == ["set pagesize 12", "set pagesize"])
    }

    @Test("scripts do not join lines: each is a command, and a trailing \\ is an error on its line")
    func noContinuationInScripts() throws {
        let result = try PipeRun.run([], input: "set pagesize 6\nset \\\nset pagesize\n",
                                     environment: home.environment(), directory: home.root)
        #expect(result.stdout == "6\n", "\(result)")
        #expect(result.stderr.hasPrefix("stdin:2: a backslash at column 5 ends the line"), "\(result)")
    }
}
