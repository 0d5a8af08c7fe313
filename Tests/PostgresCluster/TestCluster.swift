import AlmanacPostgres
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The throwaway PostgreSQL cluster every database test of a run shares, started on first use
/// by Tests/Fixtures/pg_cluster.sh and stopped when the test process ends (the script waits
/// for its standard input, which closes with the process, however it ends).
///
/// The database `almanac` has the pg_trgm extension; the role `almanac_password`
/// (password `Sesame-Open-42`) must give its password, everyone else is trusted.
public final class TestCluster: Sendable {
    public let port: Int
    /// The cluster's folder (data, socket, server.log).
    public let folder: String
    public static let database = "almanac"
    public static let passwordRole = "almanac_password"
    public static let password = "Sesame-Open-42"

    private let supervisor: Process
    private let lifeline: Pipe
    /// A read-write connection for setting up tables.
    public let admin: PostgresConnection
    private let created = Mutex<Set<String>>([])

    private static let started: Result<TestCluster, ClusterError> = {
        var failure = ClusterError("not started")
        for _ in 0..<3 {
            do { return .success(try TestCluster()) } catch let error as ClusterError { failure = error } catch {
                failure = ClusterError("\(error)")
            }
        }
        return .failure(failure)
    }()

    /// The cluster, started on first call.
    public static func shared() throws -> TestCluster { try started.get() }

    /// A second cluster, for tests of two servers (a table sharded with postgres_fdw), started on first call.
    public static func another() throws -> TestCluster { try second.get() }

    private static let second: Result<TestCluster, ClusterError> = {
        do { return .success(try TestCluster()) } catch let error as ClusterError { return .failure(error) } catch {
            return .failure(ClusterError("\(error)"))
        }
    }()

    /// A cluster of the caller's own, for a test that stops its processes (SIGSTOP) and so
    /// must not share them: `stop()` ends it (else the test process's end does).
    public static func startPrivate() throws -> TestCluster { try TestCluster() }

    /// Stops the server and removes its folder (the script waits for its input to close).
    public func stop() {
        try? lifeline.fileHandleForWriting.close()
        supervisor.waitUntilExit()
    }

    /// The server's processes: the postmaster and every process it started.
    public func serverProcesses() -> [pid_t] {
        guard let text = try? String(contentsOfFile: folder + "/data/postmaster.pid", encoding: .utf8),
              let postmaster = text.split(separator: "\n").first.flatMap({ pid_t($0.trimmingCharacters(in: .whitespaces)) }) else { return [] }
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && pid_t(fields[1]) == postmaster ? pid : nil
        }
        return [postmaster] + children
    }

    private init() throws {
        port = try Self.freePort()
        supervisor = Process()
        lifeline = Pipe()
        supervisor.executableURL = URL(fileURLWithPath: "/bin/sh")
        supervisor.arguments = [PackagePaths.root + "/Tests/Fixtures/pg_cluster.sh", String(port)]
        let output = Pipe()
        let errors = Pipe()
        supervisor.standardInput = lifeline
        supervisor.standardOutput = output
        supervisor.standardError = errors
        do { try supervisor.run() } catch { throw ClusterError("cannot run pg_cluster.sh: \(error)") }
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("ready ") else {
            supervisor.waitUntilExit()
            let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ClusterError("the test cluster did not start: \(problem.suffix(2000))")
        }
        folder = String(text.dropFirst("ready ".count))
        let server = try PostgresConnection(url: PostgresURL("postgresql://postgres@127.0.0.1:\(port)/postgres"),
                                            settings: .init(readOnly: false))
        try server.query(SQL("CREATE DATABASE \(Self.database)"))
        server.close()
        admin = try PostgresConnection(url: PostgresURL("postgresql://postgres@127.0.0.1:\(port)/\(Self.database)"),
                                       settings: .init(readOnly: false, statementTimeout: 600))
        try admin.query("CREATE EXTENSION pg_trgm")
        try admin.query(SQL("CREATE ROLE \(Self.passwordRole) LOGIN PASSWORD '\(Self.password)'"))
        try admin.query(SQL("GRANT pg_read_all_data TO \(Self.passwordRole)"))
    }

    /// `postgresql://postgres@127.0.0.1:PORT/almanac?table=TABLE`.
    public func url(table: String? = nil, user: String = "postgres", password: String? = nil, database: String = TestCluster.database) -> String {
        let credentials = password.map { "\(user):\($0)" } ?? user
        return "postgresql://\(credentials)@127.0.0.1:\(port)/\(database)" + (table.map { "?table=" + $0 } ?? "")
    }

    /// A read-only connection to the test database, as almanac opens one.
    public func connect(settings: PostgresConnection.Settings = .init()) throws -> PostgresConnection {
        try PostgresConnection(url: PostgresURL(url()), settings: settings)
    }

    /// Runs trusted set-up SQL (several statements allowed) as the superuser.
    public func execute(_ statements: String) throws {
        for statement in statements.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where !statement.isEmpty {
            try admin.query(SQL(statement))
        }
    }

    /// Runs `make` once per test run for `name` (tables several tests share); later calls wait
    /// for the first and return.
    public func once(_ name: String, _ make: () throws -> Void) throws {
        let lock = Self.locks.withLock { locks -> NSLock in
            if let lock = locks[name] { return lock }
            let lock = NSLock()
            locks[name] = lock
            return lock
        }
        try lock.withLock {
            if created.withLock({ $0.contains(name) }) { return }
            try make()
            created.withLock { _ = $0.insert(name) }
        }
    }

    private static let locks = Mutex<[String: NSLock]>([:])

    /// The server's log, for a failing test's message.
    public var serverLog: String {
        (try? String(contentsOfFile: folder + "/data/server.log", encoding: .utf8)).map { String($0.suffix(3000)) } ?? ""
    }

    /// A port nobody listens on now: the kernel's choice for a socket bound to port 0.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClusterError("socket failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw ClusterError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

public struct ClusterError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The package's root folder, found from this file's path.
public enum PackagePaths {
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        // Tests/PostgresCluster/TestCluster.swift
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
}
