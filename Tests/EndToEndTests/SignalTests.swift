import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGHUP end the shell cleanly: status 128 + the signal, every line entered
/// before it in the history file, the terminal back in cooked mode. A reader that goes away
/// (SIGPIPE) ends it quietly; a closed standard output never makes it crash.
@Suite("Signals and closed descriptors")
struct SignalTests {
    let home: TemporaryHome
    let data: DataFolder

    init() throws {
        home = try TemporaryHome()
        data = try DataFolder(in: home)
    }

    func start(_ environment: TestEnvironment? = nil) throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(data.arguments + ["--no-rc"], environment: environment ?? home.environment(),
                                                rows: 24, columns: 120)
        try session.waitForPrompt()
        return session
    }

    func historyLines() -> [String] { home.read(home.historyPath)?.lines ?? [] }

    /// Whether the terminal is in cooked mode (echo and line editing on), as libedit found it.
    func expectCooked(_ session: PseudoTerminalSession, _ context: String) {
        guard let settings = session.terminalAttributes() else {
            Issue.record("\(context): cannot read the terminal's settings")
            return
        }
        #expect(settings.c_lflag & tcflag_t(ECHO) != 0, "\(context): ECHO is off — the terminal was left raw")
        #expect(settings.c_lflag & tcflag_t(ICANON) != 0, "\(context): ICANON is off — the terminal was left raw")
    }

    @Test("SIGTERM or SIGHUP at the prompt: status 128+N, every entered line in the history, terminal cooked",
          arguments: [SIGTERM, SIGHUP])
    func atPrompt(signal: Int32) throws {
        let session = try start()
        try session.enter("use countries", prompt: "countries> ")
        try session.enter("count")
        try session.enter(" kept private")  // a leading space: not kept, on purpose
        try session.enter("search norge")
        try session.send("filter regi")  // half-typed: not a line yet
        try session.waitFor("filter regi")
        kill(session.pid, signal)
        let status = try session.waitForExit(timeout: .seconds(5))
        #expect(status == 128 + signal, "\(session.text.tail().visible)")
        #expect(historyLines() == ["use countries", "count", "search norge"], "\(historyLines())")
        #expect(home.permissions(of: home.historyPath) == 0o600)
        expectCooked(session, "after signal \(signal)")
    }

    @Test("SIGTERM or SIGHUP while a command waits for a load: status 128+N at once, history kept, terminal cooked",
          arguments: [SIGTERM, SIGHUP])
    func duringCommand(signal: Int32) throws {
        try data.makeFIFO(for: "stations")  // never fed: `count` waits for ever
        let session = try start()
        try session.enter("use stations", prompt: "stations> ")
        try session.sendLine("count")
        try session.waitFor(pattern: #"stations +\.\.\. ▕"#)
        let sent = ContinuousClock.now
        kill(session.pid, signal)
        let status = try session.waitForExit(timeout: .seconds(5))
        let took = ReliabilityLog.milliseconds(ContinuousClock.now - sent)
        #expect(status == 128 + signal, "\(session.text.tail().visible)")
        #expect(took < 1000, "it took \(took) ms to end")
        #expect(historyLines() == ["use stations", "count"], "\(historyLines())")
        expectCooked(session, "after signal \(signal) during a command")
        ReliabilityLog.record("signal \(signal) during a waiting command", String(format: "exit after %.0f ms", took))
    }

    @Test("SIGTERM while a pager shows output: the shell ends promptly, history kept, terminal cooked")
    func duringPager() throws {
        let session = try start(home.environment().with("ALMANAC_PAGER", "sleep 30"))
        try session.enter("use stations; count; use countries", prompt: "countries> ")
        try session.sendLine("show NOR")
        try session.waitFor("show NOR\n")
        pause(milliseconds: 500)
        let sent = ContinuousClock.now
        kill(session.pid, SIGTERM)
        let status = try session.waitForExit(timeout: .seconds(40))
        let took = ReliabilityLog.milliseconds(ContinuousClock.now - sent)
        #expect(status == 128 + SIGTERM, "\(session.text.tail().visible)")
        #expect(took < 2000, """
            SIGTERM while `sleep 30` paged the output: almanac ended only after \(took) ms — it waits for \
            the pager to exit on its own instead of ending it
            """)
        #expect(historyLines() == ["use stations; count; use countries", "show NOR"], "\(historyLines())")
        expectCooked(session, "after SIGTERM during the pager")
    }

    @Test("the terminal closing (hang-up) saves the history and ends the shell with 129")
    func terminalClosing() throws {
        let session = try start()
        try session.enter("use countries", prompt: "countries> ")
        try session.enter("count")
        session.hangUp()
        let status = try session.waitForExit(timeout: .seconds(5))
        #expect(status == 128 + SIGHUP || status == 0, "ended with \(status)")
        #expect(historyLines() == ["use countries", "count"], "\(historyLines())")
    }

    // MARK: - Pipes and closed descriptors

    var binary: String { ShellCommand.quote(AlmanacBinary.path) }

    @Test("a reader that goes away (`| head -1`): almanac ends quietly, by SIGPIPE or status 0, nothing on stderr")
    func brokenPipe() throws {
        for command in ["-c 'use stations' -c 'search а'", "-c 'use stations' -c 'set format json' -c 'search а'",
                        "-c 'use stations' -c 'group stationTitle'"] {
            let script = "{ \(binary) --no-rc \(command) 2>err.txt; echo $? > status.txt; } | head -1"
            let result = try ShellCommand.run(script, environment: home.environment(), directory: home.root)
            let status = Int32((home.read(home.root + "/status.txt") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            let errors = home.read(home.root + "/err.txt") ?? "(none)"
            #expect(result.stdout.lines.count == 1, "\(command): \(result.stdout.tail(300).visible)")
            #expect(status == 128 + SIGPIPE || status == 0, "\(command): status \(status)")
            #expect(errors.isEmpty, "\(command): stderr: \(errors.tail(500).visible)")
        }
    }

    @Test("a closed standard output, error or input never makes almanac crash", arguments: [
        "-c help >&-",
        "-c 'use stations' -c 'search а' >&-",
        "-c 'use stations' -c 'search а' -c bogus >&- 2>&-",
        "-c bogus 2>&-",
        "<&-",
        "-c help <&- >&- 2>&-",
        "-c 'show NOR' >/dev/full",
    ])
    func closedDescriptors(redirections: String) throws {
        let script = "\(binary) --no-rc \(redirections); echo \"status $?\" >&3"
        // Status on descriptor 3 (a file), since 1 and 2 may be closed.
        let result = try ShellCommand.run("exec 3>status.txt; \(script)", environment: home.environment(), directory: home.root)
        let text = (home.read(home.root + "/status.txt") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let status = Int32(text.dropFirst("status ".count)) ?? -1
        #expect(status >= 0 && (status < 128 || status == 128 + SIGPIPE), "`almanac \(redirections)` ended with \(text)\n\(result.stderr.tail(800))")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("crashed"), "\(result.stderr.tail(800))")
    }
}
