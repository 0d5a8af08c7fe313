import AlmanacCore
import Foundation
import PostgresCluster
import Synchronization
import Testing
@testable import AlmanacPostgres

/// Connections against the real test cluster: read-only sessions, time limits, cancellation,
/// lost connections, and passwords kept out of every message.
@Suite struct ConnectionTests {
    @Test func aSessionIsReadOnly() throws {
        let connection = try TestCluster.shared().connect()
        #expect(try connection.query("SELECT 6 * 7").scalar == "42")
        let error = #expect(throws: PostgresError.self) { try connection.query("CREATE TABLE should_not_exist (x int)") }
        guard case let .server(message, state)? = error else { Issue.record("not a server error: \(String(describing: error))"); return }
        #expect(state == "25006")
        #expect(message.contains("read-only transaction"))
        #expect(try TestCluster.shared().admin.query("SELECT to_regclass('should_not_exist') IS NULL").scalar == "t")
    }

    /// The server compiles (JIT) a statement whose estimate passes jit_above_cost; in a session
    /// of almanac's, nothing is compiled (seconds per jsonb statement on a busy machine).
    @Test func aSessionCompilesNothing() throws {
        let connection = try TestCluster.shared().connect()
        #expect(try connection.query("SELECT boot_val FROM pg_settings WHERE name = 'jit'").scalar == "on", "the server's default compiles")
        #expect(try connection.query("SHOW jit").scalar == "off")
        let plan = try connection.query("EXPLAIN SELECT count(*) FROM generate_series(1, 100000000) AS i WHERE i % 7 = 0").column(0)
        #expect(!plan.contains { $0?.hasPrefix("JIT:") == true }, "\(plan)")
    }

    @Test func parametersAreValuesNeverSQL() throws {
        let connection = try TestCluster.shared().connect()
        var sql = SQL("SELECT ")
        sql.bind("x' OR '1'='1")
        sql.append(", ")
        sql.bind("2", as: "int")
        let result = try connection.query(sql)
        #expect(result.value(0, 0) == "x' OR '1'='1")
        #expect(result.value(0, 1) == "2")
        #expect(sql.text == "SELECT $1::text, $2::int")
    }

    @Test func theStatementTimeoutStopsALongStatement() throws {
        let connection = try TestCluster.shared().connect(settings: .init(statementTimeout: 0.3))
        let start = Date()
        #expect(throws: PostgresError.timedOut(seconds: 0.3)) { try connection.query("SELECT pg_sleep(20)") }
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(try connection.query("SELECT 1").scalar == "1")
        #expect(PostgresError.timedOut(seconds: 0.3).description.contains("statement_timeout"))
    }

    @Test func cancelFromAnotherThreadReturnsWithin200Milliseconds() throws {
        let connection = try TestCluster.shared().connect()
        try connection.open()
        let fastest = try fastestOfThree {
            let returned = Mutex<(Date, Error?)?>(nil)
            let thread = Thread {
                do { try connection.query("SELECT pg_sleep(30)"); returned.withLock { $0 = (Date(), nil) } } catch {
                    returned.withLock { $0 = (Date(), error) }
                }
            }
            thread.start()
            try waitUntilSleeping(connection)
            let cancelled = Date()
            connection.cancel()
            let deadline = Date().addingTimeInterval(10)
            while returned.withLock({ $0 == nil }), Date() < deadline { usleep(1000) }
            let (end, error) = try #require(returned.withLock { $0 })
            #expect(error is CancelledError)
            // The connection stays usable.
            #expect(try connection.query("SELECT 'still here'").scalar == "still here")
            return end.timeIntervalSince(cancelled)
        }
        #expect(fastest < 0.2)
    }

    /// A statement that ends by itself as its cancel goes out leaves the request on its way;
    /// arriving during the next statement it stopped that one, which then read as a
    /// statement_timeout (seen when TAB's quick count gave up and the next command failed).
    @Test func aLateCancelNeverStopsTheNextStatement() throws {
        let connection = try TestCluster.shared().connect()
        try connection.open()
        connection.cancelDelayForTesting = 0.1
        for _ in 1...3 {
            // Cancelled at 20 ms; the request reaches the server at about 120 ms, after the
            // 60 ms statement ended.
            let start = Date()
            let cancellation = Cancellation { Date().timeIntervalSince(start) > 0.02 }
            #expect(throws: CancelledError.self) { try connection.query("SELECT pg_sleep(0.06)", cancellation: cancellation) }
            #expect(try connection.query("SELECT pg_sleep(0.3), 'next'").value(0, 1) == "next")
        }
    }

    @Test func aCancellationStopsTheStatementWithin200Milliseconds() throws {
        let connection = try TestCluster.shared().connect()
        try connection.open()
        let fastest = try fastestOfThree {
            let took = try secondsToStop { cancellation in _ = try connection.query("SELECT pg_sleep(30)", cancellation: cancellation) }
            #expect(try connection.query("SELECT 1").scalar == "1")
            return took
        }
        #expect(fastest < 0.2)
    }

    @Test func aLostConnectionIsAClearErrorAndReopensOnTheNextStatement() throws {
        let cluster = try TestCluster.shared()
        let connection = try cluster.connect()
        let firstPID = try #require(try connection.query("SELECT pg_backend_pid()").scalar)
        try cluster.admin.query(SQL("SELECT pg_terminate_backend(\(Int(firstPID)!))"))
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        guard case .connectionLost(let server, _)? = error else { Issue.record("not a lost connection: \(String(describing: error))"); return }
        #expect(server == "127.0.0.1:\(cluster.port)/almanac")
        #expect(error!.description.contains("was lost"))
        #expect(error!.description.contains("the next command opens a new one"))
        let secondPID = try #require(try connection.query("SELECT pg_backend_pid()").scalar)
        #expect(secondPID != firstPID)
        #expect(try connection.query("SELECT current_setting('default_transaction_read_only')").scalar == "on")
    }

    @Test func aServerThatIsNotThereIsAConnectError() throws {
        let cluster = try TestCluster.shared()
        let url = try PostgresURL("postgresql://postgres@127.0.0.1:1/almanac?table=t")
        let connection = try PostgresConnection(url: url)
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(error?.description.hasPrefix("cannot connect to 127.0.0.1:1/almanac: ") == true)
        _ = cluster
    }

    @Test func theRightPasswordConnects() throws {
        let cluster = try TestCluster.shared()
        let url = try PostgresURL(cluster.url(user: TestCluster.passwordRole, password: TestCluster.password))
        #expect(try PostgresConnection(url: url).query("SELECT current_user").scalar == TestCluster.passwordRole)
    }

    /// libpq's own settings apply: a password file (what ~/.pgpass is), named in the URL here
    /// so the test changes nothing for others.
    @Test func aPasswordFileApplies() throws {
        let cluster = try TestCluster.shared()
        let file = NSTemporaryDirectory() + "almanac-pgpass-\(getpid())"
        try "127.0.0.1:\(cluster.port):\(TestCluster.database):\(TestCluster.passwordRole):\(TestCluster.password)\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        chmod(file, 0o600)
        let url = try PostgresURL("postgresql://\(TestCluster.passwordRole)@127.0.0.1:\(cluster.port)/\(TestCluster.database)?passfile=\(file)&table=t")
        #expect(try PostgresConnection(url: url).query("SELECT current_user").scalar == TestCluster.passwordRole)
        #expect(url.table == TableName(schema: nil, name: "t", foldsCase: true))
    }

    /// Every way a URL with a password can fail: no message, description or shown URL holds it.
    @Test func aPasswordNeverReachesAMessage() throws {
        let cluster = try TestCluster.shared()
        let secret = "Sup3r-Secret_pw"
        let failing = [
            "postgresql://\(TestCluster.passwordRole):\(secret)@127.0.0.1:\(cluster.port)/almanac?table=t",
            "postgresql://\(TestCluster.passwordRole):\(secret)@127.0.0.1:\(cluster.port)/no_such_database?table=t",
            "postgresql://postgres:\(secret)@127.0.0.1:1/almanac?table=t",
            "postgresql://postgres:\(secret)@127.0.0.1:notaport/almanac?table=t",
            "postgresql://postgres:\(secret)@[::1/almanac?table=t",
            "postgresql://postgres:\(secret)@127.0.0.1:\(cluster.port)/almanac?sslmode=bogus&table=t",
            "postgresql://postgres@127.0.0.1:\(cluster.port)/almanac?password=\(secret)&nonsense=1&table=t",
            "postgres://postgres:\(secret.replacingOccurrences(of: "_", with: "%5F"))@no-such-host.invalid/almanac?table=t",
            "postgresql://postgres:\(secret)@127.0.0.1:\(cluster.port)/almanac?table=\"unclosed",
        ]
        for text in failing {
            var messages: [String] = []
            do {
                let url = try PostgresURL(text)
                messages.append(url.shown)
                messages.append(url.description)
                try PostgresConnection(url: url, settings: .init(connectTimeout: 3)).query("SELECT 1")
                Issue.record("connected with \(url.shown)")
            } catch {
                messages.append("\(error)")
                messages.append(String(describing: error))
            }
            for message in messages {
                #expect(!message.contains(secret), "\(message)")
                #expect(!message.contains("Sup3r"), "\(message)")
            }
            #expect(messages.last?.isEmpty == false)
        }
    }

    /// Waits until the connection's backend is inside pg_sleep.
    private func waitUntilSleeping(_ connection: PostgresConnection) throws {
        let admin = try TestCluster.shared().admin
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let sleeping = try admin.query("SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'").scalar
            if sleeping != "0" { return }
            usleep(5000)
        }
        throw ClusterError("the statement never started")
    }
}

@Suite struct URLTests {
    @Test func theTableParameterIsAlmanacsAndTheRestIsLibpqs() throws {
        let url = try PostgresURL("postgresql://alice:pw@db.example.com:6432/sales?sslmode=disable&table=public.orders")
        #expect(url.table == TableName(schema: "public", name: "orders", foldsCase: true, schemaFoldsCase: true))
        #expect(url.option("host") == "db.example.com")
        #expect(url.option("port") == "6432")
        #expect(url.option("dbname") == "sales")
        #expect(url.option("user") == "alice")
        #expect(url.option("sslmode") == "disable")
        #expect(url.password == "pw")
        #expect(url.server == "db.example.com:6432/sales")
    }

    @Test func shownURLsReplaceThePassword() throws {
        #expect(try PostgresURL("postgresql://alice:s3cret@h/db?table=t").shown == "postgresql://alice:***@h/db?table=t")
        #expect(try PostgresURL("postgres://h/db?password=s3cret&table=t").shown == "postgres://h/db?password=***&table=t")
        #expect(try PostgresURL("postgresql://alice@h:5433/db?table=t").shown == "postgresql://alice@h:5433/db?table=t")
        #expect(PostgresURL.redact("postgresql://a:b@c@h/db") == "postgresql://a:***@h/db")
    }

    @Test func tableNamesFollowSQLQuoting() throws {
        #expect(try TableName(parsing: "Orders") == TableName(schema: nil, name: "Orders", foldsCase: true))
        #expect(try TableName(parsing: "\"My Schema\".\"Sales.2024\"") == TableName(schema: "My Schema", name: "Sales.2024"))
        #expect(try TableName(parsing: "\"a\"\"b\"") == TableName(schema: nil, name: "a\"b"))
        #expect(try PostgresURL("postgresql://h/db?table=%22Big%20Table%22").table == TableName(schema: nil, name: "Big Table"))
        #expect(throws: PostgresError.self) { try TableName(parsing: "a.b.c") }
        #expect(throws: PostgresError.self) { try TableName(parsing: "") }
        #expect(throws: PostgresError.self) { try PostgresURL("mysql://h/db?table=t") }
    }
}
