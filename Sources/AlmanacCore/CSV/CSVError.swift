/// A CSV or TSV text that cannot be read, with where:
/// `people.csv: line 812, column 14: 7 fields where the header has 6`.
public struct CSVError: Error, Equatable, Sendable, CustomStringConvertible {
    public var source: String
    /// 1-based line of the text (a quoted line break starts a new one) and column in characters.
    public var line: Int
    public var column: Int
    public var message: String

    public init(source: String, line: Int, column: Int, message: String) {
        self.source = source
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(source): line \(line), column \(column): \(message)" }
}
