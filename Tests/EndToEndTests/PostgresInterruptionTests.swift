import Foundation
import PostgresCluster
import Testing

extension HeavyReliabilityTests {
/// Ctrl-C on a statement the server is still running (`count` on a view that waits in
/// pg_sleep) brings the prompt back at once, with the table still attached and the next
/// command answered; a connection the server ends gives a clear error, and the next command
/// opens a new one. On a pseudo-terminal, as a person meets them. The goal is 200 ms; CI's
/// bound is 1 s (a loaded machine), and the medians are printed as `RELIABILITY …` lines.
@Suite("PostgreSQL: Ctrl-C and lost connections", .serialized)
struct PostgresInterruptionTests {
    static let bound: Duration = .seconds(1)

    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
        try Database.slowView()
        try Database.cluster().kindsTable()
    }

    func start() throws -> PseudoTerminalSession {
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 160)
        try session.waitForPrompt()
        try session.enter("set pager off")
        return session
    }

    @Test("Ctrl-C on a statement running in pg_sleep: prompt within the bound, the table still attached, the next command answered")
    func ctrlCCancelsTheStatement() throws {
        let session = try start()
        defer { session.close() }
        let application = "almanac-e2e-\(UUID().uuidString.prefix(8))"
        try session.enter("load slow from \(try Database.url("slow", extra: "application_name=\(application)"))")
        var latencies: [Double] = []
        for attempt in 1...3 {
            try session.enter("use slow", prompt: "slow> ")
            try session.sendLine("count")
            try session.waitFor("count\n")
            // The statement is running in the server: wait until it sleeps.
            try waitUntil("the count to reach pg_sleep") {
                try Database.column("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(application)' AND wait_event = 'PgSleep'") == ["1"]
            }
            let pressed = ContinuousClock.now
            try session.send(Key.ctrlC)
            let shown = try session.waitFor(session.currentPrompt, timeout: .seconds(10))
            let took = ReliabilityLog.milliseconds(ContinuousClock.now - pressed)
            try session.waitUntilReady()
            #expect(shown.contains("cancelled"), "attempt \(attempt): \(shown.visible)")
            #expect(took < ReliabilityLog.milliseconds(Self.bound), "attempt \(attempt): the prompt came after \(took) ms")
            latencies.append(took)
            // The server stopped it too: nothing of it is left running.
            try waitUntil("the statement to end in the server") {
                try Database.column("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(application)' AND state = 'active'") == ["0"]
            }
            let next = try session.enter("filter id < 4")
            #expect(next.contains("slow 3") && next.contains("rows 1–3 of 3"), "the next command is answered: \(next.visible)")
        }
        let state = try session.enter("use")
        #expect(state.contains("using slow (PostgreSQL"), "still attached: \(state.visible)")
        try session.send(Key.ctrlD)
        _ = try session.waitForExit()
        ReliabilityLog.record("ctrl-c on pg_sleep", ReliabilityLog.format(latencies))
    }

    @Test("a connection the server ends: a clear error naming the server, and the next command works on a new one")
    func aLostConnectionIsReopened() throws {
        let session = try start()
        defer { session.close() }
        let application = "almanac-e2e-\(UUID().uuidString.prefix(8))"
        let port = try Database.cluster().port
        try session.enter("load k from \(try Database.url("kinds", extra: "application_name=\(application)"))")
        try session.enter("use k", prompt: "k> ")
        #expect(try session.enter("count").lines.last == "5")
        #expect(try Database.terminate(application: application) == 1, "almanac's one connection ended by the server")
        let lost = try session.enter("count")
        #expect(lost.contains("the connection to 127.0.0.1:\(port)/almanac was lost"), "\(lost.visible)")
        #expect(lost.contains("the next command opens a new one"), "\(lost.visible)")
        #expect(try session.enter("count").lines.last == "5", "the next command works")
        #expect(try session.enter("filter population > 100000; count").lines.last == "2")
        try session.send(Key.ctrlD)
        _ = try session.waitForExit()
    }

    /// Polls `condition` every 20 ms for up to 10 s.
    func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Deadline(.seconds(10))
        while !(try condition()) {
            if deadline.hasPassed { throw HarnessError("timed out waiting for \(what)") }
            pause(milliseconds: 20)
        }
    }
}
}
