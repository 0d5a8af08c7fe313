import AlmanacCore

/// `reach COUNTRY N` on a table of countries: the rows whose code is among those found within
/// N borders, in the order found (nearest first, then by name), each with how many
/// borders away. The graph is the table's own (`alpha3Code`, `borders`), read when the table
/// is small enough — a few hundred countries — and searched here, as memory searches it.
public struct ReachQuery: Sendable, Equatable {
    /// The field holding each row's code.
    public var field: String
    /// The codes reached, in order, and each one's distance in borders.
    public var codes: [String]
    public var distances: [Int]

    public init(field: String, codes: [String], distances: [Int]) {
        self.field = field
        self.codes = codes
        self.distances = distances
    }

    /// How many rows reach reads the borders of: a table of countries has a few hundred.
    public static let rowLimit = 100_000
}
