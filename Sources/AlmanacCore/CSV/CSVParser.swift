import CGlibc

/// A CSV or TSV reader over bytes, writing the records into a `JSONDocumentBuilder` as the
/// JSON reader would write an array of objects: one object per row, the header's names as
/// keys, empty cells left out. So every command works on a CSV file unchanged.
///
/// One pass: fields are found sixteen bytes a step (`almanac_csv_run`, which also checks the
/// UTF-8), each cell is written as what its column is so far, and the few cells a later cell
/// proves wrong are settled at the end (`CSVColumn`). Errors name the line and column.
public struct CSVParser {
    let base: UnsafePointer<UInt8>
    let count: Int
    let dialect: CSVDialect
    let source: String
    var position = 0
    /// The line `position` is on, and where that line starts (for columns in errors).
    var line = 1
    var lineStart = 0
    var nextProgress = CSVParser.populateInterval
    /// A CSV's records take about three times its bytes in nodes: the builder's storage is
    /// populated ahead (see `BuilderStorage.populate`) every quarter megabyte, so it keeps
    /// ahead of the appends, rather than at each megabyte as JSON's parse does.
    static let populateInterval = 1 << 18
    /// Values that wait for their probe of the value table (see `JSONDocumentBuilder.pendingLimit`):
    /// a few rows' worth, so each probe's slot has come from memory when it is made.
    static let waitingProbes = 16
    let progress: JSONParser.Progress?
    /// Cells that are not a slice of the input (a doubled quote, a TSV escape) are made here.
    let scratch = CSVScratch()
    let stops: (UInt8, UInt8, UInt8, UInt8)
    /// The dialect's (a `;` file's `1,5`), kept where each cell reads it.
    let decimalComma: Bool
    var columns: [CSVColumn] = []

    static let quote = UInt8(ascii: "\"")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let backslash = UInt8(ascii: "\\")

    /// What a parse found besides the records.
    public struct Summary: Sendable {
        public var dialect: CSVDialect
        public var records: Int
        public var columns: [String]
    }

    /// Parses `bytes` into `builder`, which must hold nothing yet: its root is an array of the
    /// records. `progress` learns how far this thread is (its pages may go); `parsed`, how
    /// many bytes both threads have parsed. `split`: a large text's second half is parsed on
    /// another thread (`CSVSecondPart`).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, source: String, dialect: CSVDialect, into builder: inout JSONDocumentBuilder,
                      progress: JSONParser.Progress? = nil, parsed: ((Int) -> Void)? = nil, split: Bool = false,
                      releasePart: @escaping (Range<Int>) -> Void = { _ in }) throws(LoadFailure) -> Summary {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return noRecords(dialect: dialect, into: &builder) }
        var parser = CSVParser(base: base, count: bytes.count, dialect: dialect, source: source, progress: progress)
        if ByteOrderMark.length(atStartOf: bytes) > 0 {
            parser.position = ByteOrderMark.utf8.count
            parser.lineStart = parser.position
        }
        parser.parsed = parsed
        parser.releasePart = releasePart
        if split, let start = CSVSecondPart.start(in: bytes) { parser.splitAt = start }
        return try parser.parseRecords(into: &builder)
    }

    /// Where a second thread starts parsing (see `CSVSecondPart`), and that thread.
    var splitAt: Int?
    var secondPart: CSVSecondPart?
    var parsed: ((Int) -> Void)?
    var releasePart: (Range<Int>) -> Void = { _ in }

    init(base: UnsafePointer<UInt8>, count: Int, dialect: CSVDialect, source: String, progress: JSONParser.Progress?) {
        self.base = base
        self.count = count
        self.dialect = dialect
        self.source = source
        self.progress = progress
        decimalComma = dialect.decimalComma
        stops = dialect.style == .escaped
            ? (dialect.delimiter, Self.newline, Self.carriageReturn, Self.backslash)
            : (dialect.delimiter, Self.newline, Self.carriageReturn, dialect.delimiter)
    }

    // MARK: - Rows

    mutating func parseRecords(into builder: inout JSONDocumentBuilder) throws(LoadFailure) -> Summary {
        skipBlankLines()
        guard position < count else { return Self.noRecords(dialect: dialect, into: &builder) }
        let names = try dialect.hasHeader ? readHeader() : firstRowNames()
        columns = names.map { CSVColumn(name: $0, key: builder.internKey($0)) }
        let root = builder.openContainer(.array)
        var records = 0
        if let splitAt {
            secondPart = CSVSecondPart(bytes: UnsafeBufferPointer(start: base, count: count), start: splitAt, dialect: dialect,
                                       names: names, source: source, release: releasePart)
        }
        defer { secondPart?.abandon() }
        while true {
            if let part = secondPart, position >= part.start {
                secondPart = nil
                // At the start of a row exactly where the second part started: its records are these.
                if position == part.start, let parsed = part.join() {
                    _ = builder.appendDetached(parsed.builder)
                    records += parsed.records
                    columns = zip(columns, parsed.columns).map { $0.merged(with: $1) }
                    position = count
                    break
                }
                part.abandon()
            }
            skipBlankLines()
            guard position < count else { break }
            try parseRow(into: &builder)
            records += 1
            if position >= nextProgress { try reportProgress(&builder) }
        }
        builder.closeContainer(at: root, count: records)
        builder.addRoot(root)
        builder.resolvePending()
        builder.settle(columns, root: root)
        let empty = Set(columns.indices.filter { columns[$0].kind == .empty && !columns[$0].nullWords })
        if let slots = CSVNesting.slots(for: names, empty: empty) { builder.nest(slots, columns: columns, root: root) }
        return Summary(dialect: dialect, records: records, columns: names)
    }

    /// An empty text, or one of line breaks only: no columns and no records, as an empty
    /// NDJSON file has none (the load notes that the text is empty).
    static func noRecords(dialect: CSVDialect, into builder: inout JSONDocumentBuilder) -> Summary {
        let root = builder.openContainer(.array)
        builder.closeContainer(at: root, count: 0)
        builder.addRoot(root)
        return Summary(dialect: dialect, records: 0, columns: [])
    }

    @inline(__always)
    mutating func parseRow(into builder: inout JSONDocumentBuilder) throws(LoadFailure) {
        let object = builder.openContainer(.object)
        var members = 0
        var field = 0
        var lastLine = line
        while true {
            let (fieldStart, fieldLine) = (position, line)
            let (cell, stable) = try readField()
            if field == columns.count {
                let extra = try countRestOfRow()
                throw error("\(columns.count + 1 + extra) fields where the header has \(columns.count)", at: fieldStart, line: fieldLine)
            }
            if cell.count > 0 {
                write(cell, stable: stable, column: field, into: &builder)
                members += 1
            }
            field += 1
            lastLine = line
            guard position < count else { break }
            let byte = base[position]
            if byte == dialect.delimiter {
                position += 1
                continue
            }
            if field < columns.count {
                throw error("\(field) field\(field == 1 ? "" : "s") where the header has \(columns.count)", at: position, line: lastLine)
            }
            position += 1
            if byte == Self.carriageReturn, position < count, base[position] == Self.newline { position += 1 }
            line += 1
            lineStart = position
            break
        }
        if field < columns.count {
            throw error("\(field) field\(field == 1 ? "" : "s") where the header has \(columns.count)", at: position, line: lastLine)
        }
        builder.closeContainer(at: object, count: members)
    }

    /// After a field too many: how many more the row has, for the error.
    private mutating func countRestOfRow() throws(LoadFailure) -> Int {
        var more = 0
        while position < count, base[position] == dialect.delimiter {
            position += 1
            _ = try readField()
            more += 1
        }
        return more
    }

    mutating func skipBlankLines() {
        while position < count {
            let byte = base[position]
            guard byte == Self.newline || byte == Self.carriageReturn else { return }
            position += 1
            if byte == Self.carriageReturn, position < count, base[position] == Self.newline { position += 1 }
            line += 1
            lineStart = position
        }
    }

    /// The first row's cells as the columns' names: spaces around them trimmed, an empty one
    /// named by its place (`column3`), a repeated one numbered (`name_2`).
    mutating func readHeader() throws(LoadFailure) -> [String] {
        var names: [String] = []
        while true {
            let (cell, _) = try readField()
            names.append(String(decoding: CSVCell.trimmed(cell), as: UTF8.self))
            guard position < count else { break }
            let byte = base[position]
            position += 1
            if byte == dialect.delimiter { continue }
            if byte == Self.carriageReturn, position < count, base[position] == Self.newline { position += 1 }
            line += 1
            lineStart = position
            break
        }
        return Self.unique(names)
    }

    /// `column1`, `column2`…: as many as the first row has fields (which is read again as a record).
    mutating func firstRowNames() throws(LoadFailure) -> [String] {
        let (start, startLine, startOfLine) = (position, line, lineStart)
        var fields = 1
        _ = try readField()
        while position < count, base[position] == dialect.delimiter {
            position += 1
            _ = try readField()
            fields += 1
        }
        (position, line, lineStart) = (start, startLine, startOfLine)
        return (1...fields).map { "column\($0)" }
    }

    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.enumerated().map { index, name in
            var chosen = name.isEmpty ? "column\(index + 1)" : name
            var suffix = 2
            while seen.contains(chosen) {
                chosen = (name.isEmpty ? "column\(index + 1)" : name) + "_\(suffix)"
                suffix += 1
            }
            seen.insert(chosen)
            return chosen
        }
    }

    // MARK: - Cells

    /// Reads the field at `position` and leaves `position` at what ends it: the delimiter, a
    /// line break, or the end. `stable`: the cell is a slice of the input (else of `scratch`,
    /// valid until the next field).
    @inline(__always)
    mutating func readField() throws(LoadFailure) -> (cell: UnsafeBufferPointer<UInt8>, stable: Bool) {
        if dialect.style == .quoted, position < count, base[position] == Self.quote { return try readQuoted() }
        let start = position
        var index = position
        while true {
            index = almanac_csv_run(base, index, count, stops.0, stops.1, stops.2, stops.3)
            guard index < count else { index = count; break }
            let byte = base[index]
            if byte == dialect.delimiter || byte == Self.newline || byte == Self.carriageReturn { break }
            if byte == Self.backslash, dialect.style == .escaped { return try readEscaped(from: start, at: index) }
            index += try characterLength(at: index)
        }
        position = index
        return (UnsafeBufferPointer(start: base + start, count: index - start), true)
    }

    /// A TSV field with a backslash escape, from its first backslash: `\t`, `\n`, `\r` and `\\`
    /// stand for a tab, a line feed, a carriage return and a backslash; another backslash stays.
    mutating func readEscaped(from start: Int, at first: Int) throws(LoadFailure) -> (cell: UnsafeBufferPointer<UInt8>, stable: Bool) {
        scratch.reset()
        scratch.append(UnsafeBufferPointer(start: base + start, count: first - start))
        var index = first
        while index < count {
            let byte = base[index]
            if byte == dialect.delimiter || byte == Self.newline || byte == Self.carriageReturn { break }
            if byte == Self.backslash, index + 1 < count {
                switch base[index + 1] {
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "n"): scratch.append(Self.newline)
                case UInt8(ascii: "r"): scratch.append(Self.carriageReturn)
                case Self.backslash: scratch.append(Self.backslash)
                default: scratch.append(byte); scratch.append(base[index + 1])
                }
                index += 2
                continue
            }
            let length = try characterLength(at: index)
            scratch.append(UnsafeBufferPointer(start: base + index, count: length))
            index += length
        }
        position = index
        return (scratch.buffer, false)
    }

    /// A field in quotes (RFC 4180): a doubled quote is one quote; line breaks are kept.
    mutating func readQuoted() throws(LoadFailure) -> (cell: UnsafeBufferPointer<UInt8>, stable: Bool) {
        let opening = position
        let (openingLine, openingLineStart) = (line, lineStart)
        let start = position + 1
        var index = start
        var piece = start
        var copied = false
        while true {
            index = almanac_csv_run(base, index, count, Self.quote, Self.newline, Self.quote, Self.quote)
            guard index < count else {
                throw .csv(CSVError(source: source, line: openingLine, column: column(of: opening, lineStart: openingLineStart),
                                    message: "a quoted field starts here and never ends (a closing quote is missing)"))
            }
            let byte = base[index]
            if byte == Self.newline {
                index += 1
                line += 1
                lineStart = index
                continue
            }
            if byte != Self.quote {
                index += try characterLength(at: index)
                continue
            }
            if index + 1 < count, base[index + 1] == Self.quote {
                if !copied { scratch.reset(); copied = true }
                scratch.append(UnsafeBufferPointer(start: base + piece, count: index + 1 - piece))
                index += 2
                piece = index
                continue
            }
            break
        }
        position = index + 1
        if position < count {
            let next = base[position]
            guard next == dialect.delimiter || next == Self.newline || next == Self.carriageReturn else {
                throw error("after a closing quote, expected \(delimiterName) or the end of the line, found \(describe(position)) "
                            + "(a quote inside a quoted field is written twice: \"\")", at: position, line: line)
            }
        }
        if copied {
            scratch.append(UnsafeBufferPointer(start: base + piece, count: index - piece))
            return (scratch.buffer, false)
        }
        return (UnsafeBufferPointer(start: base + start, count: index - start), true)
    }

    /// The length of the character at `index` (a byte `almanac_csv_run` stopped at), checking
    /// its UTF-8.
    @inline(__always)
    func characterLength(at index: Int) throws(LoadFailure) -> Int {
        let first = base[index]
        if first < 0x80 { return 1 }
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < count && base[index + offset] >= low && base[index + offset] <= high
        }
        switch first {
        case 0xC2...0xDF where continuation(1): return 2
        case 0xE0 where continuation(1, 0xA0) && continuation(2): return 3
        // (A `where` holds for the last pattern of a case only: one range a case.)
        case 0xE1...0xEC where continuation(1) && continuation(2): return 3
        case 0xEE...0xEF where continuation(1) && continuation(2): return 3
        case 0xED where continuation(1, 0x80, 0x9F) && continuation(2): return 3
        case 0xF0 where continuation(1, 0x90) && continuation(2) && continuation(3): return 4
        case 0xF1...0xF3 where continuation(1) && continuation(2) && continuation(3): return 4
        case 0xF4 where continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3): return 4
        default:
            throw error("invalid UTF-8 (byte 0x\(String(first, radix: 16, uppercase: true))): is the file in another encoding? "
                        + "`iconv -f WINDOWS-1252 -t UTF-8` converts one from Windows", at: index, line: line)
        }
    }

    // MARK: - Progress and errors

    mutating func reportProgress(_ builder: inout JSONDocumentBuilder) throws(LoadFailure) {
        nextProgress = position + Self.populateInterval
        builder.populateAhead()
        parsed?(position + (secondPart?.done.load(ordering: .relaxed) ?? 0))
        guard let progress else { return }
        do { try progress(position) } catch { throw .cancelled }
    }

    var delimiterName: String {
        switch dialect.delimiter {
        case 0x09: "a tab"
        default: "'\(Character(UnicodeScalar(dialect.delimiter)))'"
        }
    }

    func describe(_ offset: Int) -> String {
        guard offset < count else { return "the end of the text" }
        let byte = base[offset]
        if byte < 0x20 || byte == 0x7F { return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
        var end = offset + 1
        while end < count, end - offset < 4, base[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: UnsafeBufferPointer(start: base + offset, count: end - offset), as: UTF8.self) + "'"
    }

    func column(of offset: Int, lineStart: Int) -> Int {
        almanac_count_characters(base, lineStart, max(lineStart, min(offset, count))) + 1
    }

    /// An error at `offset`, which is on `line` (the current one, or the row's last).
    func error(_ message: String, at offset: Int, line: Int) -> LoadFailure {
        let start = line == self.line ? lineStart : Self.lineStart(before: min(offset, count), in: base)
        return .csv(CSVError(source: source, line: line, column: column(of: offset, lineStart: start), message: message))
    }

    /// Where the line holding `offset` starts.
    static func lineStart(before offset: Int, in base: UnsafePointer<UInt8>) -> Int {
        var start = offset
        while start > 0, base[start - 1] != newline, base[start - 1] != carriageReturn { start -= 1 }
        return start
    }
}

/// A whole CSV or TSV text read as `load` reads one: the dialect sniffed from its first
/// 64 KiB, then one pass into a document (almanac-bench times this).
public enum DelimitedText {
    /// How the records are kept: columns when they fit (`TableNodes`), else the tape.
    public enum Layout: Sendable { case automatic, tape }

    /// `progress`: how far the first thread is (pages before it may go, and it may stop
    /// there); `parsed`: bytes parsed by both; `releasePart`: the second thread's bytes it is
    /// done with (their pages may go). A text of 4 MiB or more is parsed on two threads.
    /// `layout`: `.tape` for the tape whatever the text (tests compare the two); `.automatic`
    /// tries the columns first (`CSVTableParsing`) when `progress` may give pages back that a
    /// second parse finds again (a mapped file's: `pagesComeBack`).
    public static func document(of bytes: UnsafeBufferPointer<UInt8>, source: String, tsv: Bool, progress: JSONParser.Progress? = nil,
                                parsed: ((Int) -> Void)? = nil, releasePart: @escaping (Range<Int>) -> Void = { _ in },
                                layout: Layout = .automatic, pagesComeBack: Bool = true)
        throws(LoadFailure) -> (document: JSONDocument, summary: CSVParser.Summary) {
        let sampleSize = min(bytes.count, 64 << 10)
        let dialect = CSVDialect.sniff(UnsafeBufferPointer(rebasing: bytes[0..<sampleSize]), tsv: tsv, complete: sampleSize == bytes.count)
        var tapeParsed = parsed
        if layout == .automatic, pagesComeBack || progress == nil, let base = bytes.baseAddress, bytes.count > 0 {
            var parser = CSVParser(base: base, count: bytes.count, dialect: dialect, source: source, progress: progress)
            if ByteOrderMark.length(atStartOf: bytes) > 0 {
                parser.position = ByteOrderMark.utf8.count
                parser.lineStart = parser.position
            }
            let reached = Reached()
            parser.parsed = parsed.map { report in { reached.bytes = $0; report($0) } }
            if case let .table(document, summary) = try parser.parseTable(expectedBytes: bytes.count) { return (document, summary) }
            // Missed late (a word among numbers at 90%): the tape parses it all again. The bar
            // goes on from where it stood to the end over that second pass, never back.
            if let report = parsed, reached.bytes > 0 {
                let (from, total) = (Double(reached.bytes), Double(max(bytes.count, 1)))
                tapeParsed = { report(Int(from + Double($0) / total * (total - from))) }
            }
        }
        // Records of a few short cells take more nodes than their text has bytes: room for
        // that is reserved (untouched, it costs address space only).
        var builder = JSONDocumentBuilder(expectedBytes: bytes.count * 4, detached: false, guessing: true, valueBytes: bytes.count * 4)
        builder.pendingLimit = CSVParser.waitingProbes
        let summary = try CSVParser.parse(bytes, source: source, dialect: dialect, into: &builder, progress: progress, parsed: tapeParsed, split: true,
                                          releasePart: releasePart)
        return (builder.finish(), summary)
    }
}

/// How far the columns' parse had come (its reports' last).
private final class Reached { var bytes = 0 }

/// Room for the cells that are not a slice of the input, valid until the next `reset`.
final class CSVScratch {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity = 256

    init() { base = .allocate(capacity: capacity) }
    deinit { base.deallocate() }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    func reset() { count = 0 }

    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    private func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        capacity = max(capacity * 2, count + more)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
    }
}
