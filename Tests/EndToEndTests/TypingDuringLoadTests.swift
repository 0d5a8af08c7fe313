import Foundation
import Testing

/// Typing while a command waits for a load and draws its progress bar: the keys never land
/// on the bar's line (no stale bar is left), and the next prompt shows them on its own line.
@Suite("Typing while a progress bar is drawn", .serialized)
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
        let fifo = try data.makeFIFO(for: "stations")
        let session = try PseudoTerminalSession(data.arguments, environment: home.environment(), rows: 30, columns: 100)
        try session.waitForPrompt()
        try session.enter("use stations", prompt: "stations> ")
        try session.sendLine("count")
        try session.waitFor(pattern: Self.bar)
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
}
