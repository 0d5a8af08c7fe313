import AlmanacCore
import CLibPQ
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a server, used by one statement at a time.
///
/// Sessions are read-only (`default_transaction_read_only`) unless opened for writing, and
/// every statement has a `statement_timeout`. A running statement stops when its
/// `Cancellation` says so or when `cancel()` is called from another thread: PQcancel asks the
/// server to stop it — on a thread of its own, since PQcancel has no timeout and a server that
/// stopped answering would hold it forever — and control returns within a fraction of a second
/// even if the server does not answer (the connection is then given up). Every statement also
/// has a deadline of its own, a little past the server's `statement_timeout`, so a server that
/// stops answering never holds the shell. A connection that breaks gives a `connectionLost`
/// error and is opened again by the next statement.
public final class PostgresConnection: @unchecked Sendable {
    public struct Settings: Sendable, Equatable {
        /// `default_transaction_read_only`: nothing can change the database through it.
        public var readOnly: Bool
        /// The server stops any statement running longer (0: no limit).
        public var statementTimeout: Double
        /// Giving up on a server that does not answer.
        public var connectTimeout: Double

        public init(readOnly: Bool = true, statementTimeout: Double = 300, connectTimeout: Double = 10) {
            self.readOnly = readOnly
            self.statementTimeout = statementTimeout
            self.connectTimeout = connectTimeout
        }
    }

    public let url: PostgresURL
    public let settings: Settings

    /// Held for the whole of a statement: one at a time per connection.
    private let statementLock = NSLock()
    /// The PGconn; used only while holding `statementLock`.
    private var connection: OpaquePointer?
    /// Set by `cancel()`; cleared when a statement starts. The waiting statement sees it.
    let cancelRequested = Atomic<Bool>(false)
    /// Cancel requests sent and not yet answered by the server, by the connection they stop
    /// (its `generation`). One that arrives late would stop the next statement, which would
    /// then read as a statement_timeout.
    private let unansweredCancels = Mutex<[Int: Int]>([:])
    /// Counts the connections opened; used only while holding `statementLock`.
    private var generation = 0
    /// How long a cancel request waits before it is sent: a slow network, for tests.
    var cancelDelayForTesting: Double = 0

    /// A PGcancel handed to the thread that sends it, which frees it.
    private struct CancelRequest: @unchecked Sendable {
        let pointer: OpaquePointer
    }
    /// How long past the server's `statement_timeout` the client waits before giving up a
    /// statement itself (a stopped server enforces no timeout).
    public static let clientDeadlineGrace: Double = 2
    /// How long a ROLLBACK after a failure may take: the transaction ends with the
    /// connection anyway.
    public static let rollbackTimeout: Double = 2

    /// After asking the server to cancel, how long to wait for it before giving up the connection.
    static let cancelGrace: Double = 0.15
    /// How often a waiting statement looks at its cancellation.
    static let pollMilliseconds: Int32 = 10

    public init(url: PostgresURL, settings: Settings = Settings()) throws(PostgresError) {
        try LibPQ.open()
        self.url = url
        self.settings = settings
    }

    deinit {
        if let connection { PQfinish(connection) }
    }

    /// Whether a connection is open now (it may still have broken since its last statement).
    public var isOpen: Bool {
        statementLock.withLock { connection.map { PQstatus($0) == CONNECTION_OK } ?? false }
    }

    /// Where the open connection went, as libpq settled it from the URL, the environment
    /// (PGHOST, PGPORT, PGDATABASE) and its defaults: `127.0.0.1:5432/shop`, or
    /// `socket /run/postgresql:5432/shop`. Opens the connection if needed.
    public func endpoint(cancellation: Cancellation = .never) throws -> String {
        try statementLock.withLock {
            let connection = try opened(cancellation: cancellation)
            let host = PQhost(connection).map { String(cString: $0) } ?? ""
            let port = PQport(connection).map { String(cString: $0) } ?? ""
            let database = PQdb(connection).map { String(cString: $0) } ?? ""
            let shownHost = host.isEmpty ? "localhost" : host.hasPrefix("/") ? "socket " + host : host
            return shownHost + (port.isEmpty ? "" : ":" + port) + "/" + database
        }
    }

    /// Opens the connection now rather than at the first statement.
    public func open(cancellation: Cancellation = .never) throws {
        try statementLock.withLock { _ = try opened(cancellation: cancellation) }
    }

    /// Closes the connection; the next statement opens a new one.
    public func close() {
        statementLock.withLock { drop() }
    }

    /// Asks the server to stop the statement running now, from any thread: the statement's
    /// wait sees the request within `pollMilliseconds` and sends it.
    public func cancel() {
        cancelRequested.store(true, ordering: .releasing)
    }

    /// `name` quoted as an identifier by libpq (PQescapeIdentifier), whatever it holds: a
    /// column named with a control character is quoted like any other (refusing it refused
    /// the whole table). Whoever shows the name escapes it (SafeText).
    public func quote(_ name: String) throws -> String {
        guard !name.contains("\0") else { throw PostgresError.invalid("a name cannot hold a NUL byte: \(name.debugDescription)") }
        return try statementLock.withLock {
            let connection = try opened(cancellation: .never)
            guard let quoted = PQescapeIdentifier(connection, name, name.utf8.count) else {
                throw PostgresError.invalid(url.scrub(String(cString: PQerrorMessage(connection)).trimmed))
            }
            defer { PQfreemem(quoted) }
            return String(cString: quoted)
        }
    }

    // MARK: - Statements

    /// Runs one statement and returns its rows. `timeout` (seconds) stops it sooner than the
    /// session's statement_timeout (completion asks with a short one).
    @discardableResult
    public func query(_ sql: SQL, cancellation: Cancellation = .never, timeout: Double? = nil) throws -> PostgresResult {
        try statementLock.withLock {
            // A short timeout (datasets, completion) bounds connecting too.
            let connection = try opened(cancellation: cancellation, connectTimeout: timeout)
            return try run(sql, on: connection, cancellation: cancellation, timeout: timeout)
        }
    }

    /// Runs `body` with the connection held: its statements run back to back, nothing else in
    /// between (transactions, cursors).
    public func session<Result>(cancellation: Cancellation = .never, _ body: (Session) throws -> Result) throws -> Result {
        try statementLock.withLock {
            let connection = try opened(cancellation: cancellation)
            return try body(Session(owner: self, connection: connection))
        }
    }

    /// The connection while `session` holds it. If it breaks, the session's later statements
    /// fail (a transaction does not continue on a new connection).
    public struct Session {
        let owner: PostgresConnection
        let connection: OpaquePointer

        @discardableResult
        public func query(_ sql: SQL, cancellation: Cancellation = .never, timeout: Double? = nil) throws -> PostgresResult {
            try owner.run(sql, on: try current(), cancellation: cancellation, timeout: timeout)
        }

        /// `COPY … FROM STDIN`: sends what `produce` writes, then ends the copy. Returns the
        /// rows copied.
        public func copyIn(_ sql: SQL, cancellation: Cancellation = .never,
                           produce: (_ send: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Int {
            try owner.copyIn(sql, on: try current(), cancellation: cancellation, produce: produce)
        }

        /// Whether the session's connection is still the open one, in a usable state.
        public var isUsable: Bool { owner.connection == connection && PQstatus(connection) == CONNECTION_OK }

        private func current() throws -> OpaquePointer {
            guard owner.connection == connection else {
                throw PostgresError.connectionLost(server: owner.url.server, message: "the connection was closed")
            }
            return connection
        }
    }

    private enum StopReason {
        case user, deadline(Double)
    }

    private func run(_ sql: SQL, on connection: OpaquePointer, cancellation: Cancellation, timeout: Double?) throws -> PostgresResult {
        cancelRequested.store(false, ordering: .releasing)
        try send(sql, on: connection)
        let timeout = timeout ?? clientDeadline
        let deadline = timeout.map { Date().addingTimeInterval($0) }
        var last: PostgresResult?
        var failure: Error?
        while true {
            try waitForResult(connection, cancellation: cancellation, deadline: deadline, timeout: timeout)
            guard let result = PQgetResult(connection) else { break }
            switch PQresultStatus(result) {
            case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
                last = PostgresResult(result)
            case PGRES_COPY_IN:
                // Only copyIn starts copies; end one that arrives here.
                PQclear(result)
                _ = PQputCopyEnd(connection, "unexpected COPY")
            default:
                if failure == nil { failure = error(of: result, connection: connection) }
                PQclear(result)
            }
        }
        if let stopped = stopReason {
            stopReason = nil
            if PQstatus(connection) != CONNECTION_OK { drop() }
            switch stopped {
            case .user: throw CancelledError()
            case let .deadline(seconds): throw PostgresError.timedOut(seconds: seconds)
            }
        }
        if PQstatus(connection) != CONNECTION_OK {
            let message = url.scrub(String(cString: PQerrorMessage(connection)).trimmed)
            drop()
            throw PostgresError.connectionLost(server: url.server, message: message.isEmpty ? "no answer" : Self.firstLine(message))
        }
        if let failure { throw failure }
        guard let last else { throw PostgresError.server(message: "the server sent no result", sqlState: nil) }
        return last
    }

    private var stopReason: StopReason?

    /// The client's own limit on a statement: the server's `statement_timeout` and a little
    /// more (none when the server has none either).
    var clientDeadline: Double? {
        settings.statementTimeout > 0 ? settings.statementTimeout + Self.clientDeadlineGrace : nil
    }

    func send(_ sql: SQL, on connection: OpaquePointer) throws {
        let values = sql.parameters.map { $0.flatMap { strdup($0) } }
        defer { for value in values { free(value) } }
        let sent = values.map { $0.map { UnsafePointer<CChar>($0) } }.withUnsafeBufferPointer { pointers in
            PQsendQueryParams(connection, sql.text, Int32(values.count), nil, pointers.baseAddress, nil, nil, 0)
        }
        guard sent == 1 else { throw lostOrFailed(connection) }
    }

    /// Waits until a result can be read without blocking, watching for cancellation.
    func waitForResult(_ connection: OpaquePointer, cancellation: Cancellation, deadline: Date?, timeout: Double?) throws {
        var cancelSentAt: Date?
        while PQisBusy(connection) == 1 {
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Self.pollMilliseconds)
            if cancelSentAt == nil {
                if cancelRequested.load(ordering: .acquiring) || cancellation.isCancelled {
                    stopReason = .user
                } else if let deadline, Date() >= deadline {
                    stopReason = .deadline(timeout ?? 0)
                }
                if stopReason != nil {
                    sendCancel(connection)
                    cancelSentAt = Date()
                }
            } else if let sent = cancelSentAt, Date().timeIntervalSince(sent) > Self.cancelGrace {
                // The server did not stop in time: give the connection up rather than keep the
                // person waiting; the next statement opens a new one.
                drop()
                throw stopReason.map { reason -> Error in
                    stopReason = nil
                    if case let .deadline(seconds) = reason { return PostgresError.timedOut(seconds: seconds) }
                    return CancelledError()
                } ?? CancelledError()
            }
            if PQconsumeInput(connection) == 0 { return }
        }
    }

    /// Sends a cancel request for `connection`'s statement on a thread of its own, which
    /// owns its PGcancel: PQcancel opens a connection and waits for the server's answer, with
    /// no timeout. A stopped server keeps that thread (until the process ends), never the shell.
    private func sendCancel(_ connection: OpaquePointer) {
        guard let pointer = PQgetCancel(connection) else { return }
        let request = CancelRequest(pointer: pointer)
        let (generation, delay) = (generation, cancelDelayForTesting)
        unansweredCancels.withLock { $0[generation, default: 0] += 1 }
        BackgroundThread.start(name: "almanac PQcancel") { [self] in
            if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
            var buffer = [CChar](repeating: 0, count: 256)
            _ = PQcancel(request.pointer, &buffer, Int32(buffer.count))
            PQfreeCancel(request.pointer)
            unansweredCancels.withLock { counts in
                counts[generation, default: 1] -= 1
                if counts[generation] == 0 { counts[generation] = nil }
            }
        }
    }

    /// Whether every cancel request sent has been answered, waiting up to `cancelGrace` for
    /// them. The server ignores a cancel that reaches an idle connection, so once answered it
    /// cannot stop the next statement; one still unanswered can, and its connection is given
    /// up instead (the late request then finds no statement of ours).
    private func cancelsSettled() -> Bool {
        let deadline = Date().addingTimeInterval(Self.cancelGrace)
        while unansweredCancels.withLock({ $0[generation] != nil }) {
            if Date() >= deadline { return false }
            usleep(1_000)
        }
        return true
    }

    // MARK: - Connecting

    /// The open connection, opening it (again) when there is none or it broke.
    private func opened(cancellation: Cancellation, connectTimeout: Double? = nil) throws -> OpaquePointer {
        if connection != nil, !cancelsSettled() { drop() }
        if let connection, PQstatus(connection) == CONNECTION_OK { return connection }
        drop()
        let connection = try connect(cancellation: cancellation, timeout: min(connectTimeout ?? settings.connectTimeout, settings.connectTimeout))
        self.connection = connection
        generation += 1
        do {
            try configure(connection)
        } catch {
            drop()
            throw error
        }
        return connection
    }

    /// Closes the connection (the next statement opens a new one). Holding `statementLock`.
    func drop() {
        if let connection { PQfinish(connection) }
        connection = nil
    }

    /// What the URL says, and what almanac adds unless the URL sets it.
    private var connectionOptions: [(String, String)] {
        var options = url.options.map { ($0.keyword, $0.value) }
        func add(_ keyword: String, _ value: String) {
            if !options.contains(where: { $0.0 == keyword }) { options.append((keyword, value)) }
        }
        add("application_name", "almanac")
        add("client_encoding", "UTF8")
        return options
    }

    /// Connects without blocking, so Ctrl-C and the time limit can stop it.
    private func connect(cancellation: Cancellation, timeout: Double) throws -> OpaquePointer {
        let options = connectionOptions
        let keywords = options.map { strdup($0.0) } + [nil]
        let values = options.map { strdup($0.1) } + [nil]
        defer { for pointer in keywords + values { free(pointer) } }
        let started: OpaquePointer? = keywords.map { $0.map { UnsafePointer<CChar>($0) } }.withUnsafeBufferPointer { keywordPointers in
            values.map { $0.map { UnsafePointer<CChar>($0) } }.withUnsafeBufferPointer { valuePointers in
                PQconnectStartParams(keywordPointers.baseAddress, valuePointers.baseAddress, 0)
            }
        }
        guard let connection = started else { throw PostgresError.connect(server: url.server, message: "out of memory") }
        let deadline = Date().addingTimeInterval(timeout)
        var status = PGRES_POLLING_WRITING
        while status != PGRES_POLLING_OK {
            if status == PGRES_POLLING_FAILED || PQstatus(connection) == CONNECTION_BAD {
                let message = url.scrub(String(cString: PQerrorMessage(connection)).trimmed)
                PQfinish(connection)
                throw PostgresError.connect(server: url.server, message: Self.firstLine(message))
            }
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(status == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
            while true {
                let ready = poll(&descriptor, 1, Self.pollMilliseconds)
                if ready != 0 { break }
                if cancellation.isCancelled {
                    PQfinish(connection)
                    throw CancelledError()
                }
                if Date() >= deadline {
                    PQfinish(connection)
                    throw PostgresError.connect(server: url.server, message: "no answer in \(NumberText.seconds(timeout))")
                }
            }
            status = PQconnectPoll(connection)
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        return connection
    }

    /// Read-only, the statement time limit, ISO dates and no JIT, in one round trip. JIT
    /// compiles every statement whose estimated cost is high, as those over jsonb are whatever
    /// the table's size: outside's (an outline's edges per country) took 55 s to compile and
    /// 0.2 s to run; 9 statements on a 200-row jsonb table 115 s, and 0.3 s without.
    private func configure(_ connection: OpaquePointer) throws {
        var sql = SQL("SELECT set_config('default_transaction_read_only', ")
        sql.bind(settings.readOnly ? "on" : "off")
        sql.append(", false), set_config('statement_timeout', ")
        sql.bind(String(Int((settings.statementTimeout * 1000).rounded())))
        sql.append(", false), set_config('DateStyle', 'ISO', false)")
        // Servers without JIT (before PostgreSQL 11, other engines) have no such setting.
        sql.append(", CASE WHEN current_setting('jit', true) IS NOT NULL THEN set_config('jit', 'off', false) END")
        _ = try run(sql, on: connection, cancellation: .never, timeout: settings.connectTimeout)
    }

    // MARK: - Errors

    func error(of result: OpaquePointer, connection: OpaquePointer) -> Error {
        let state = PQresultErrorField(result, 67 /* PG_DIAG_SQLSTATE */).map { String(cString: $0) }
        if state == "57014" {
            // query_canceled: asked for by cancel() — whose answer can arrive before the wait
            // loop has seen the request — else the statement_timeout.
            if cancelRequested.load(ordering: .acquiring) { return CancelledError() }
            return PostgresError.timedOut(seconds: settings.statementTimeout)
        }
        var message = PQresultErrorField(result, 77 /* PG_DIAG_MESSAGE_PRIMARY */).map { String(cString: $0) }
            ?? String(cString: PQresultErrorMessage(result)).trimmed
        if let detail = PQresultErrorField(result, 68 /* PG_DIAG_MESSAGE_DETAIL */) {
            message += " (\(String(cString: detail)))"
        }
        return PostgresError.server(message: url.scrub(message), sqlState: state)
    }

    func lostOrFailed(_ connection: OpaquePointer) -> Error {
        let message = url.scrub(String(cString: PQerrorMessage(connection)).trimmed)
        if PQstatus(connection) != CONNECTION_OK {
            drop()
            return PostgresError.connectionLost(server: url.server, message: Self.firstLine(message))
        }
        return PostgresError.server(message: message, sqlState: nil)
    }

    static func firstLine(_ message: String) -> String {
        message.split(separator: "\n").first.map(String.init)?.trimmed ?? message
    }
}
