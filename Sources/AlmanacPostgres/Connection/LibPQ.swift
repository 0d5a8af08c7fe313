import CLibPQLoader

/// libpq, opened on first use (see CLibPQLoader for why it is not linked).
enum LibPQ {
    /// Opens libpq once; later calls return at once.
    static func open() throws(PostgresError) {
        if let failure = almanac_libpq_open() { throw .library(String(cString: failure)) }
    }
}
