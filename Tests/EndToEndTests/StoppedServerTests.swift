import AlmanacPostgres
import Foundation
import PostgresCluster
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension HeavyReliabilityTests {
/// A server that stops answering (its processes stopped with SIGSTOP, as a hung machine or a
/// network that drops everything would) never holds the shell (issue 31): Ctrl-C brings the
/// prompt back within 1 s — PQcancel, which has no timeout, runs off the main thread and the
/// connection is then given up — and `datasets` keeps to its budget. The cluster is the test's
/// own; every process it stopped is continued in a `defer`, whatever the test's outcome.
@Suite("PostgreSQL: a server that stops answering", .serialized)
struct StoppedServerTests {
    static let bound: Duration = .seconds(1)
    let home: TemporaryHome

    init() throws { home = try TemporaryHome() }

    func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Deadline(.seconds(10))
        while !(try condition()) {
            if deadline.hasPassed { throw HarnessError("timed out waiting for \(what)") }
            pause(milliseconds: 20)
        }
    }

    /// Stops every process of `cluster` for `body`, continuing them after it however it ends.
    func whileStopped(_ cluster: TestCluster, _ body: () throws -> Void) rethrows {
        var stopped = Set<pid_t>()
        defer {
            for pid in stopped.union(cluster.serverProcesses()) { kill(pid, SIGCONT) }
        }
        for pid in cluster.serverProcesses() where kill(pid, SIGSTOP) == 0 { stopped.insert(pid) }
        try body()
    }

    @Test("Ctrl-C during count on a stopped server: the prompt within 1 s, twice; datasets within its budget; then it works again")
    func ctrlCOnAStoppedServer() throws {
        let cluster = try TestCluster.startPrivate()
        defer { cluster.stop() }
        // As `Database.slowView`: count waits in pg_sleep, `filter id < 4` is an index scan.
        try cluster.execute("""
            CREATE TABLE slow_rows AS SELECT i AS id, 'slow ' || i AS name FROM generate_series(1, 100000) AS i;
            ALTER TABLE slow_rows ADD PRIMARY KEY (id);
            ANALYZE slow_rows;
            CREATE VIEW slow AS SELECT id, name FROM slow_rows WHERE id <= 300 OR (SELECT pg_sleep(60)) IS NULL
            """)
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 160)
        defer { session.close() }
        try session.waitForPrompt()
        try session.enter("set pager off")
        try session.enter("load slow from \(cluster.url(table: "slow"))")
        try session.enter("use slow", prompt: "slow> ")
        try session.sendLine("count")
        try session.waitFor("count\n")
        try waitUntil("the count to reach pg_sleep") {
            try cluster.admin.query(SQL("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'PgSleep'")).scalar == "1"
        }
        var latencies: [Double] = []
        try whileStopped(cluster) {
            // The statement's connection, then a new one that cannot even start.
            for attempt in 1...2 {
                if attempt > 1 {
                    try session.sendLine("count")
                    try session.waitFor("count\n")
                    pause(milliseconds: 300)
                }
                let pressed = ContinuousClock.now
                try session.send(Key.ctrlC)
                let shown = try session.waitFor(session.currentPrompt, timeout: .seconds(30))
                let took = ReliabilityLog.milliseconds(ContinuousClock.now - pressed)
                try session.waitUntilReady()
                latencies.append(took)
                #expect(shown.contains("cancelled"), "attempt \(attempt): \(shown.visible)")
                #expect(took < ReliabilityLog.milliseconds(Self.bound), "attempt \(attempt): the prompt came after \(took) ms")
            }
            let started = ContinuousClock.now
            let listed = try session.enter("datasets", timeout: .seconds(30))
            let took = ReliabilityLog.milliseconds(ContinuousClock.now - started)
            #expect(listed.contains("slow"), "\(listed.visible)")
            #expect(took < 3000, "datasets took \(took) ms on a stopped server")
            ReliabilityLog.record("datasets, stopped server", "\(Int(took)) ms")
        }
        // Continued: the next command opens a new connection and answers.
        let next = try session.enter("filter id < 4", timeout: .seconds(30))
        #expect(next.contains("rows 1–3 of 3"), "\(next.visible)")
        ReliabilityLog.record("ctrl-c, stopped server", ReliabilityLog.format(latencies))
        try session.send(Key.ctrlD)
        _ = try session.waitForExit()
    }

    @Test("every statement has a client-side deadline: a stopped server's statement ends a little after statement_timeout")
    func clientDeadline() throws {
        let cluster = try TestCluster.startPrivate()
        defer { cluster.stop() }
        let connection = try PostgresConnection(url: PostgresURL(cluster.url()), settings: .init(statementTimeout: 0.5))
        #expect(try connection.query("SELECT 1").scalar == "1")
        var failure: (any Error)?
        let started = ContinuousClock.now
        whileStopped(cluster) {
            do { _ = try connection.query("SELECT 2") } catch { failure = error }
        }
        let took = ReliabilityLog.milliseconds(ContinuousClock.now - started)
        #expect(failure.map { "\($0)".contains("and was stopped") } == true, "\(String(describing: failure))")
        let limit = (0.5 + PostgresConnection.clientDeadlineGrace + 1) * 1000
        #expect(took < limit, "the statement ended after \(took) ms")
        ReliabilityLog.record("client deadline, stopped server", "\(Int(took)) ms (statement_timeout 500 ms)")
        // Continued, the connection is opened again.
        #expect(try connection.query("SELECT 3").scalar == "3")
    }

    @Test("Ctrl-C during an export into a stopped server: the prompt within 1 s, nothing written")
    func ctrlCOnAnExportToAStoppedServer() throws {
        let cluster = try TestCluster.startPrivate()
        defer { cluster.stop() }
        let session = try PseudoTerminalSession(["--no-rc"], environment: home.environment(), rows: 24, columns: 160)
        defer { session.close() }
        try session.waitForPrompt()
        try session.enter("use stations", prompt: "stations> ")
        var took = 0.0
        try whileStopped(cluster) {
            try session.sendLine("export \(cluster.url(table: "stations_copy"))")
            try session.waitFor("stations_copy\n")
            pause(milliseconds: 300)
            let pressed = ContinuousClock.now
            try session.send(Key.ctrlC)
            _ = try session.waitFor(session.currentPrompt, timeout: .seconds(30))
            took = ReliabilityLog.milliseconds(ContinuousClock.now - pressed)
        }
        #expect(took < ReliabilityLog.milliseconds(Self.bound), "the prompt came after \(took) ms")
        #expect(try cluster.admin.query("SELECT to_regclass('stations_copy') IS NULL").scalar == "t")
        ReliabilityLog.record("ctrl-c on export, stopped server", "\(Int(took)) ms")
    }
}
}
