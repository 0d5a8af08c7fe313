import AlmanacCore
import CLibPQ
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension PostgresConnection {
    /// `COPY … FROM STDIN` on `connection`: the statement, then what `produce` sends, then
    /// the end of the copy. A producer that throws ends the copy with an error, so the server
    /// keeps none of it. Returns the rows copied.
    func copyIn(_ sql: SQL, on connection: OpaquePointer, cancellation: Cancellation,
                        produce: (_ send: (UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> Int {
        cancelRequested.store(false, ordering: .releasing)
        try send(sql, on: connection)
        let limit = clientDeadline
        try waitForResult(connection, cancellation: cancellation, deadline: limit.map { Date().addingTimeInterval($0) }, timeout: limit)
        guard let started = PQgetResult(connection) else { throw lostOrFailed(connection) }
        guard PQresultStatus(started) == PGRES_COPY_IN else {
            let failure = error(of: started, connection: connection)
            PQclear(started)
            while let extra = PQgetResult(connection) { PQclear(extra) }
            throw failure
        }
        PQclear(started)
        // Non-blocking while the rows go out: a server that stops reading would otherwise hold
        // PQputCopyData (and the shell) until the socket drains, which may be never.
        PQsetnonblocking(connection, 1)
        defer { PQsetnonblocking(connection, 0) }
        var producerError: Error?
        do {
            try produce { bytes in
                try cancellation.checkpoint()
                while true {
                    let queued = PQputCopyData(connection, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
                    if queued == 1 { break }
                    if queued < 0 { throw lostOrFailed(connection) }
                    try waitUntilSent(connection, cancellation: cancellation)
                }
                if PQflush(connection) < 0 { throw lostOrFailed(connection) }
            }
        } catch {
            producerError = error
        }
        if producerError == nil || PQstatus(connection) == CONNECTION_OK {
            while PQputCopyEnd(connection, producerError == nil ? nil : "almanac stopped the copy") == 0 {
                do { try waitUntilSent(connection, cancellation: cancellation) } catch { producerError = producerError ?? error; break }
            }
            while producerError == nil, PQflush(connection) == 1 {
                do { try waitUntilSent(connection, cancellation: cancellation) } catch { producerError = error }
            }
        }
        var copied = 0
        var failure: Error?
        while true {
            // Cancelling here still ends the copy with nothing kept: the transaction fails.
            try waitForResult(connection, cancellation: cancellation, deadline: limit.map { Date().addingTimeInterval($0) }, timeout: limit)
            guard let result = PQgetResult(connection) else { break }
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = PostgresResult(result).affectedRows
            } else {
                if failure == nil { failure = error(of: result, connection: connection) }
                PQclear(result)
            }
        }
        if let producerError { throw producerError }
        if PQstatus(connection) != CONNECTION_OK { throw lostOrFailed(connection) }
        if let failure { throw failure }
        return copied
    }

    /// Waits until the socket takes more of what libpq holds to send (PQflush), watching for
    /// Ctrl-C and the client's deadline: then the connection is given up.
    func waitUntilSent(_ connection: OpaquePointer, cancellation: Cancellation) throws {
        let deadline = clientDeadline.map { Date().addingTimeInterval($0) }
        while true {
            let flushed = PQflush(connection)
            if flushed == 0 { return }
            if flushed < 0 { throw lostOrFailed(connection) }
            var descriptor = pollfd(fd: PQsocket(connection), events: Int16(POLLOUT | POLLIN), revents: 0)
            _ = poll(&descriptor, 1, Self.pollMilliseconds)
            if descriptor.revents & Int16(POLLIN) != 0, PQconsumeInput(connection) == 0 { throw lostOrFailed(connection) }
            if cancelRequested.load(ordering: .acquiring) || cancellation.isCancelled {
                drop()
                throw CancelledError()
            }
            if let deadline, Date() >= deadline {
                drop()
                throw PostgresError.timedOut(seconds: clientDeadline ?? 0)
            }
        }
    }
}
