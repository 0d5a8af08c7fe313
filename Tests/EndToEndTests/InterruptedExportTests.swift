import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension HeavyReliabilityTests {
/// One rule for an export that is interrupted, by Ctrl-C at the prompt or by a signal in a
/// script: it is abandoned — no temporary file left, the old file as it was, no "wrote N
/// records", and a script ends with 128 + the signal.
@Suite("An interrupted export is abandoned", .serialized)
struct InterruptedExportTests {
    let home: TemporaryHome
    let folder: String
    static let old = "the old file\n"

    init() throws {
        home = try TemporaryHome()
        folder = try home.makeFolder("out")
        try home.write(Self.old, to: "out/all.json")
    }

    /// Everything in the folder but the old file: a temporary file would be here.
    func leftovers() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0 != "all.json" }
    }

    /// Waits until the export has begun writing its temporary file, so the interruption lands
    /// inside the write whatever the build's speed (the release build writes 64 MB in ~0.6 s).
    func waitForTheWriteToBegin() throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while leftovers().isEmpty {
            guard ContinuousClock.now < deadline else { throw HarnessError("the export never began writing in \(folder)") }
            pause(milliseconds: 1)
        }
    }

    @Test("SIGTERM, SIGINT or SIGHUP during an export in a script: abandoned, the old file intact, status 128+N",
          arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalInAScript(signal: Int32) throws {
        let big = try BigStationsFile.shared(megabytes: 64)
        let session = try PipeSession(["--no-rc"], environment: home.environment(), directory: folder)
        try session.send("load big from \(big.path); use big; count")
        try session.waitFor("\(big.stations)\n", timeout: .seconds(120))
        try session.send("export all.json --force")
        try waitForTheWriteToBegin()
        let sent = ContinuousClock.now
        kill(session.pid, signal)
        let status = try session.finish(timeout: .seconds(10))
        let milliseconds = ReliabilityLog.milliseconds(ContinuousClock.now - sent)
        #expect(status == 128 + signal)
        #expect(home.read(folder + "/all.json") == Self.old, "the old file is intact")
        #expect(leftovers().isEmpty, "left behind: \(leftovers())")
        #expect(!session.stdoutText.contains("wrote"))
        #expect(milliseconds < 1000, "\(milliseconds) ms from the signal to the exit")
        ReliabilityLog.record("signal \(signal) during an export", String(format: "abandoned, exit after %.0f ms", milliseconds))
    }

    @Test("Ctrl-C during an export at the prompt: abandoned, says so, never 'wrote N records'")
    func controlCAtThePrompt() throws {
        let big = try BigStationsFile.shared(megabytes: 64)
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 200)
        try session.waitForPrompt()
        try session.enter("load big from \(big.path)", timeout: .seconds(120))
        try session.enter("use big; count", prompt: "big> ", timeout: .seconds(60))
        let path = folder + "/all.json"
        try session.sendLine("export \(path) --force")
        try session.waitFor("--force\n")
        try waitForTheWriteToBegin()
        let pressed = ContinuousClock.now
        try session.send(Key.ctrlC)
        let shown = try session.waitFor("big> ", timeout: .seconds(30))
        let milliseconds = ReliabilityLog.milliseconds(ContinuousClock.now - pressed)
        #expect(shown.contains("export cancelled: \(path) was not written"), "\(shown.visible)")
        #expect(!shown.contains("wrote"), "\(shown.visible)")
        #expect(home.read(folder + "/all.json") == Self.old)
        #expect(leftovers().isEmpty, "left behind: \(leftovers())")
        try session.waitUntilReady()
        try session.send(Key.ctrlD)
        #expect(try session.waitForExit() == 0)
        ReliabilityLog.record("ctrl-c during an export", String(format: "abandoned, prompt after %.0f ms", milliseconds))
    }
}
}
