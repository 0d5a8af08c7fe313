import AlmanacCore
import CLibPQ
import Foundation
import Synchronization

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
        var producerError: Error?
        do {
            try produce { bytes in
                try cancellation.checkpoint()
                guard PQputCopyData(connection, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count)) == 1 else {
                    throw lostOrFailed(connection)
                }
            }
        } catch {
            producerError = error
        }
        _ = PQputCopyEnd(connection, producerError == nil ? nil : "almanac stopped the copy")
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
}
