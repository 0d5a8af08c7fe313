import CLibPQ

/// The rows a statement returned, read in place from libpq's result (text format).
public final class PostgresResult: @unchecked Sendable {
    // Never changed after init; libpq's accessors only read it.
    private let result: OpaquePointer
    public let rowCount: Int
    public let columnCount: Int

    init(_ result: OpaquePointer) {
        self.result = result
        rowCount = Int(PQntuples(result))
        columnCount = Int(PQnfields(result))
    }

    deinit { PQclear(result) }

    public func columnName(_ column: Int) -> String { String(cString: PQfname(result, Int32(column))) }
    public func columnType(_ column: Int) -> UInt32 { PQftype(result, Int32(column)) }
    public var columnNames: [String] { (0..<columnCount).map(columnName) }

    public func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// The value as text, or nil for NULL.
    public func value(_ row: Int, _ column: Int) -> String? {
        isNull(row, column) ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }

    /// Whether the value is boolean true as PostgreSQL writes it: `t` bare, `true` cast to text.
    public func isTrue(_ row: Int, _ column: Int) -> Bool { Self.isTrue(value(row, column)) }
    public static func isTrue(_ text: String?) -> Bool { text == "t" || text == "true" }

    /// The value's bytes, valid while this result lives; empty for NULL.
    public func withBytes<T>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return try PQgetvalue(result, Int32(row), Int32(column)).withMemoryRebound(to: UInt8.self, capacity: max(length, 1)) {
            try body(UnsafeBufferPointer(start: $0, count: length))
        }
    }

    /// Every value of a column.
    public func column(_ column: Int) -> [String?] { (0..<rowCount).map { value($0, column) } }

    /// The single value of a one-row, one-column answer.
    public var scalar: String? { rowCount > 0 && columnCount > 0 ? value(0, 0) : nil }

    /// The rows affected by a command (`INSERT 0 5` → 5).
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }
}
