import Foundation
import Testing

/// Typing while a command runs (here: waits for a load and draws its progress bar): the keys
/// never land on the bar's line (no stale bar is left), and the next prompt shows them on its
/// own line, exactly as typed: a Ctrl-D among them ends the shell there, as it would at the
/// prompt. (In the terminal's canonical mode a Ctrl-D is no key but an end of file, which the
/// prompt then read as a NUL.)
@Suite("Typing while a command runs", .serialized)
struct TypingDuringLoadTests {
    let home: TemporaryHome
    let data: DataFolder

    init() throws {
        home = try TemporaryHome()
        data = try DataFolder(in: home)
    }

    static let bar = #"stations +(\.\.\.|[0-9]+%) ▕"#

    @Test("keys typed (Enter too) while the bar is drawn wait for the prompt; no bar line is left behind")
    func typedKeysWaitForThePrompt() throws {
        let (session, fifo) = try startWaitingCount()
        // Typed while the bar is up: a whole command and the start of another.
        try session.send("set pagesize 9\r")
        try session.send("help abo")
        session.settle(quiet: .milliseconds(300), timeout: .seconds(2))
        let during = session.screen
        #expect(!during.lines.contains { $0.contains("help abo") || $0.contains("pagesize") },
                "nothing typed is drawn next to the bar: \(during.lines.suffix(4))")

        let feeder = FIFOFeeder.start(fifo, bytes: try DataFolder.realContents("stations"), chunks: 4, over: .milliseconds(400))
        try feeder.wait()
        // The count, then the typed command runs at its prompt, then the rest is on the next line.
        try session.waitForScreen("the typed keys at the prompt") { $0.beforeCursor == "stations> help abo" }
        let screen = session.screen
        #expect(!screen.lines.contains { $0.contains("▕") }, "no bar left anywhere: \(screen.lines.suffix(8))")
        let count = try #require(screen.lines.lastIndex { $0 == "stations> count" })
        #expect(screen.lines[count + 1] == "4037", "\(screen.lines.suffix(8))")
        #expect(screen.lines[count + 2] == "stations> set pagesize 9", "\(screen.lines.suffix(8))")
        session.skipReceived()
        try session.send("ut\r")
        try session.waitFor("usage: about")
        try session.waitForPrompt()
        #expect(try session.enter("set pagesize").contains("9"), "the command typed during the wait ran")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }

    /// `count` waits for stations.json, a FIFO, so the keys surely arrive while it runs.
    func startWaitingCount() throws -> (PseudoTerminalSession, String) {
        let fifo = try data.makeFIFO(for: "stations")
        let session = try PseudoTerminalSession(data.arguments, environment: home.environment(), rows: 30, columns: 100)
        try session.waitForPrompt()
        try session.enter("use stations", prompt: "stations> ")
        try session.sendLine("count")
        try session.waitFor(pattern: Self.bar)
        return (session, fifo)
    }

    // libedit writes ^D where it ends the line.
    @Test("Ctrl-D typed while a command runs ends the shell at the next prompt, after the command's answer")
    func ctrlDDuringCommandEndsTheShell() throws {
        let (session, fifo) = try startWaitingCount()
        try session.send(Key.ctrlD)
        session.settle(quiet: .milliseconds(200), timeout: .seconds(2))
        let feeder = FIFOFeeder.start(fifo, bytes: try DataFolder.realContents("stations"))
        try feeder.wait()
        try session.waitFor("4037\n")
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
        let screen = session.screen
        #expect(Array(screen.lines.filter { !$0.isEmpty }.suffix(3)) == ["stations> count", "4037", "stations> ^D"],
                "\(screen.lines.suffix(6))")
    }

    @Test("a command and then Ctrl-D typed while another runs: the command runs at its prompt, then the shell ends")
    func typedCommandThenCtrlD() throws {
        let (session, fifo) = try startWaitingCount()
        try session.send("set pagesize 9\r" + Key.ctrlD)
        session.settle(quiet: .milliseconds(200), timeout: .seconds(2))
        let feeder = FIFOFeeder.start(fifo, bytes: try DataFolder.realContents("stations"))
        try feeder.wait()
        #expect(try session.waitForExit() == 0, "\(session.text.tail().visible)")
        let screen = session.screen
        #expect(Array(screen.lines.filter { !$0.isEmpty }.suffix(4)) == ["stations> count", "4037", "stations> set pagesize 9", "stations> ^D"],
                "\(screen.lines.suffix(6))")
        #expect(home.read(home.historyPath)?.lines.suffix(2) == ["count", "set pagesize 9"])
    }

    @Test("the editor `edit` starts gets the terminal as it was before almanac: line by line, echoing")
    func editorGetsACookedTerminal() throws {
        let modes = home.root + "/modes.txt"
        let script = try home.write("""
            #!/bin/sh
            stty -a > '\(modes)'
            printf 'set pagesize 9\\n' > "$1"
            """, to: "editor.sh")
        chmod(script, 0o755)
        let session = try PseudoTerminalSession(environment: home.environment().with("EDITOR", script), rows: 30, columns: 100)
        try session.waitForPrompt()
        // The edited command is shown after a prompt's text: the prompt to type at is the next one.
        try session.enter("edit")
        try session.waitForPrompt()
        let words = (home.read(modes) ?? "").split(whereSeparator: \.isWhitespace)
        #expect(words.contains("icanon") && words.contains("echo") && words.contains("isig"), "\(words)")
        #expect(try session.enter("set pagesize").contains("9"), "what the editor saved ran")
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
    }
}
