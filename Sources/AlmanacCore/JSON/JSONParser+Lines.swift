import CGlibc

/// NDJSON: one JSON value per line.
extension JSONParser {
    /// The byte before each text of a JSON text sequence (RFC 7464; GeoJSON's, RFC 8142):
    /// read as NDJSON, it is a blank before a line's value.
    public static let recordSeparator: UInt8 = 0x1E

    /// Parses newline-delimited JSON: one value per non-blank line. No line is no value, not
    /// an error: an empty NDJSON file holds 0 records, as COPY FROM an empty file copies 0 rows.
    public static func parseLines(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, into builder: inout JSONDocumentBuilder,
        limits: Limits = Limits(), progress: Progress? = nil, lines: LineTracker = LineTracker()
    ) throws(LoadFailure) -> [Int] {
        builder.isLines = true
        guard let base = bytes.baseAddress, bytes.count > 0 else { return [] }
        var parser = JSONParser(base: base, count: bytes.count, source: source, limits: limits, progress: progress, lines: lines)
        // A UTF-8 byte order mark is tolerated, as in a JSON or CSV file.
        if ByteOrderMark.length(atStartOf: bytes) > 0 { parser.position = ByteOrderMark.utf8.count }
        var roots: [Int] = []
        // Lines counted only up to a root that is not an object, when there is one.
        var counted = (offset: 0, line: 1)
        while true {
            parser.skipWhitespace()
            while parser.position < parser.count, parser.base[parser.position] == Self.recordSeparator {
                parser.position += 1
                parser.skipWhitespace()
            }
            if parser.position >= parser.count { break }
            let start = parser.position
            let root: Int
            do throws(LoadFailure) {
                root = try parser.parseValueChecked(into: &builder)
            } catch {
                throw parser.unclosedLine(error, recordAt: start)
            }
            roots.append(root)
            builder.addRoot(root)
            if builder.kind(at: root) != .object {
                counted = (start, counted.line + almanac_count_newlines(base, counted.offset, start))
                builder.lineOfRoot[root] = counted.line
            }
            // The rest of the line must be blank.
            while parser.position < parser.count, parser.base[parser.position] == 0x20 || parser.base[parser.position] == 0x09
                || parser.base[parser.position] == 0x0D {
                parser.position += 1
            }
            if parser.position < parser.count, parser.base[parser.position] != 0x0A {
                throw .json(parser.error(.expected("a new line after the value", found: parser.describeHere())))
            }
            // Between records, as between an array's elements: the bar moves and Ctrl-C stops.
            if parser.position >= parser.nextProgress {
                do throws(ParseFailure) { try parser.reportProgress(&builder) } catch { throw .cancelled }
            }
        }
        builder.resolvePending()
        return roots
    }

    /// A record that does not end on its line reads on into the next one, and fails there
    /// (`{"a":2` then `{"a":3}`: "3:1: expected ',' or '}', found '{'"). The error belongs at
    /// the end of the record's line, and says what the line lacks: its text parsed alone ends
    /// too early, expecting it. A line ending in `{`, `[` or `,` is left alone: a record spread
    /// over lines (jq's pretty output) reads on, and fails where it fails.
    func unclosedLine(_ failure: LoadFailure, recordAt start: Int) -> LoadFailure {
        // Bytes before `lines.offset` may have been given back (see `LineTracker`).
        guard case let .json(error) = failure, start >= lines.offset, error.offset <= count,
              var end = (start..<error.offset).first(where: { base[$0] == 0x0A }) else { return failure }
        while end > start, base[end - 1] == 0x20 || base[end - 1] == 0x09 || base[end - 1] == 0x0D { end -= 1 }
        guard end > start, ![UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: ",")].contains(base[end - 1]) else { return failure }
        var alone = JSONParser(base: base, count: end, source: source, limits: limits, progress: nil, lines: LineTracker())
        alone.position = start
        var scratch = JSONDocumentBuilder()
        do throws(LoadFailure) {
            _ = try alone.parseValueChecked(into: &scratch)
            return failure
        } catch {
            guard case let .json(lineError) = error, case let .unexpectedEnd(expected) = lineError.reason else { return failure }
            let (line, column) = lines.position(of: end, in: UnsafeBufferPointer(start: base, count: count))
            return .json(JSONError(reason: .unclosedRecord(expected: expected, line: line), source: source, offset: end, line: line, column: column))
        }
    }
}
