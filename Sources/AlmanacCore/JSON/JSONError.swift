/// A JSON text that cannot be read, with where: `stations.json:1834:17: expected ',' or '}'`.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        case expected(String, found: String)
        case unexpectedEnd(expected: String)
        /// An NDJSON record that its line does not close: where the line ends.
        case unclosedRecord(expected: String, line: Int)
        case empty
        case invalidUTF8
        case controlCharacterInString(UInt8)
        case invalidEscape(String)
        case loneSurrogate(String)
        case invalidNumber(String)
        case tooDeep(limit: Int)
        case stringTooLong(limit: Int)
        case trailingContent(found: String)
        case documentTooLarge(limit: String)

        public var description: String {
            switch self {
            case let .expected(what, found): "expected \(what), found \(found)"
            case let .unexpectedEnd(expected): "the text ends too early (truncated?): expected \(expected)"
            case let .unclosedRecord(expected, line): "expected \(expected), found the end of the line (the record on line \(line) is not closed)"
            case .empty: "the text is empty: expected a JSON value"
            case .invalidUTF8: "invalid UTF-8 byte sequence"
            case let .controlCharacterInString(byte):
                "control character U+\(String(byte, radix: 16, uppercase: true).leftPadded(to: 4)) must be escaped inside a string"
            case let .invalidEscape(escape): "invalid escape \(escape) in a string"
            case let .loneSurrogate(escape): "lone surrogate \(escape) is not a character"
            case let .invalidNumber(text): "invalid number '\(text)'"
            case let .tooDeep(limit): "arrays and objects nested deeper than \(limit) levels (the limit)"
            // The limit is a byte short of a whole MiB (4 MiB − 1): rounded up, not down to 3.
            case let .stringTooLong(limit): "a string of \((limit + (1 << 20) - 1) / (1 << 20)) MiB or more (the limit)"
            case let .trailingContent(found): "unexpected \(found) after the end of the JSON value"
            case let .documentTooLarge(limit): "the data is larger than \(limit) (the limit)"
            }
        }
    }

    public var reason: Reason
    /// Where the text came from: a file name, a URL, `stdin`.
    public var source: String
    /// Byte offset of the problem.
    public var offset: Int
    /// 1-based line and column (in characters) of the problem.
    public var line: Int
    public var column: Int

    public var description: String { "\(source):\(line):\(column): \(reason)" }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
