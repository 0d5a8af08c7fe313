import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict JSON (RFC 8259) reader over bytes, writing into a `JSONDocumentBuilder`.
///
/// One pass, no intermediate objects: this is what lets a large file load at hundreds of MB/s.
/// Every problem is reported with its line and column. Limits are explicit: nesting depth and
/// string length (see `Limits`).
public struct JSONParser {
    public struct Limits: Sendable {
        public var maximumDepth = 512
        public var maximumStringBytes = JSONDocument.maximumStringLength
        public init() {}
    }

    /// Reports progress as bytes consumed, about every `progressInterval` bytes, and asks
    /// whether to stop.
    public typealias Progress = (_ bytesConsumed: Int) throws(CancelledError) -> Void

    public static let progressInterval = 1 << 20

    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    /// Where this parse started (a suffix parse starts mid-text).
    var origin = 0
    let source: String
    let limits: Limits
    var depth = 0
    var nextProgress = JSONParser.progressInterval
    let progress: Progress?
    var scratch: [UInt8] = []
    /// The deepest nesting reached (relative to where a suffix parse started).
    var deepest = 0
    var split: JSONSplit?
    /// Where the other thread's part starts, once it is known; `Int.max` otherwise.
    var splitPosition = Int.max
    /// Closing the containers around a spliced part: its levels, and the next one to close.
    /// `inner`: the container closed last (the element, at the next level out, that held the split).
    var unwinding: (suffix: JSONSplit.Suffix, base: Int, next: Int, inner: Int)?
    /// A suffix parse notes where a node starts at each progress report, for the merge to
    /// split its copy there (see `JSONDocumentBuilder.appendDetached`).
    var boundaries: [Int]?

    /// Parses one JSON text from `bytes` into `builder` and returns the index of its root.
    ///
    /// With a `split`, another thread may be parsing the rest of the text from a later
    /// element of some array (see `JSONSplit`); reaching that element, this parser takes
    /// over its nodes instead of parsing them again. The result is the same either way.
    /// Throws `LoadFailure.retry` when the other part cannot fit the structure around it,
    /// which only an invalid text can cause: parsing again without a split reports it.
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, into builder: inout JSONDocumentBuilder,
        limits: Limits = Limits(), progress: Progress? = nil, lines: LineTracker = LineTracker(), split: JSONSplit? = nil
    ) throws(LoadFailure) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw .json(JSONError(reason: .empty, source: source, offset: 0, line: 1, column: 1))
        }
        var parser = JSONParser(base: base, count: bytes.count, source: source, limits: limits, progress: progress, lines: lines)
        parser.split = split
        parser.splitPosition = split?.publishedPosition ?? .max
        defer { split?.abandon() }
        let root = try parser.parseDocument(into: &builder)
        builder.resolvePending()
        return root
    }

    /// Parses the rest of a text from `start`, an element of an array other than its first,
    /// without knowing what encloses that array: the elements to its end, then the rest of
    /// each enclosing container (an object or an array, as its closing bracket and its
    /// members tell) until the text ends. `builder` must be detached.
    static func parseSuffix(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, source: String, into builder: inout JSONDocumentBuilder,
        limits: Limits = Limits(), progress: Progress? = nil
    ) -> (levels: [JSONSplit.Level], deepest: Int, boundaries: [Int])? {
        guard let base = bytes.baseAddress, start > 0, start < bytes.count else { return nil }
        var parser = JSONParser(base: base, count: bytes.count, source: source, limits: limits, progress: progress, lines: LineTracker())
        parser.position = start
        parser.origin = start
        parser.nextProgress = start + Self.progressInterval
        parser.boundaries = []
        do {
            let levels = try parser.parseSuffix(into: &builder)
            builder.resolvePending()
            return (levels, parser.deepest, parser.boundaries ?? [])
        } catch {
            return nil
        }
    }

    let lines: LineTracker

    init(base: UnsafePointer<UInt8>, count: Int, source: String, limits: Limits, progress: Progress?, lines: LineTracker) {
        self.lines = lines
        self.base = base
        self.count = count
        self.source = source
        self.limits = limits
        self.progress = progress
    }

    mutating func parseDocument(into builder: inout JSONDocumentBuilder) throws(LoadFailure) -> Int {
        // A UTF-8 byte order mark is tolerated.
        if ByteOrderMark.length(atStartOf: UnsafeBufferPointer(start: base, count: count)) > 0 { position = ByteOrderMark.utf8.count }
        skipWhitespace()
        if position >= count {
            throw .json(JSONError(reason: .empty, source: source, offset: 0, line: 1, column: 1))
        }
        let root = try parseValueChecked(into: &builder)
        skipWhitespace()
        if position < count { throw .json(error(.trailingContent(found: describeHere()))) }
        builder.addRoot(root)
        return root
    }

    mutating func parseValueChecked(into builder: inout JSONDocumentBuilder) throws(LoadFailure) -> Int {
        let index = builder.nodeCount
        do {
            return try parseValue(into: &builder)
        } catch let failure {
            switch failure {
            case let .syntax(reason, offset): throw .json(self.error(reason, at: offset))
            case .cancelled: throw .cancelled
            case .spliced:
                // Every container around the spliced part is closed, up to this root.
                guard let unwinding, unwinding.next == unwinding.suffix.levels.count else { throw .retry }
                return index
            case .splitMismatch: throw .retry
            }
        }
    }

    // MARK: - Values

    enum ParseFailure: Error {
        case syntax(JSONError.Reason, offset: Int)
        case cancelled
        /// The other thread's part was taken in: each enclosing container closes as this
        /// passes through it.
        case spliced
        /// The other part does not fit the containers it was meant to end (an invalid text).
        case splitMismatch
    }

    mutating func parseValue(into builder: inout JSONDocumentBuilder) throws(ParseFailure) -> Int {
        let index = builder.nodeCount
        guard position < count else { throw .syntax(.unexpectedEnd(expected: "a value"), offset: position) }
        switch base[position] {
        case UInt8(ascii: "{"): try parseObject(into: &builder)
        case UInt8(ascii: "["): try parseArray(into: &builder)
        case UInt8(ascii: "\""): try parseString(into: &builder, isKey: false)
        case UInt8(ascii: "t"): try parseLiteral("true", .true, into: &builder)
        case UInt8(ascii: "f"): try parseLiteral("false", .false, into: &builder)
        case UInt8(ascii: "n"): try parseLiteral("null", .null, into: &builder)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber(into: &builder)
        default: throw .syntax(.expected("a value", found: describeHere()), offset: position)
        }
        return index
    }

    /// A member's value: strings and numbers (most values) without the call to `parseValue`.
    @inline(__always)
    mutating func parseMemberValue(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        guard position < count else { _ = try parseValue(into: &builder); return }
        let first = base[position]
        if first == UInt8(ascii: "\"") {
            try parseString(into: &builder, isKey: false)
        } else if first == UInt8(ascii: "-") || isDigit(first) {
            try parseNumber(into: &builder)
        } else {
            _ = try parseValue(into: &builder)
        }
    }

    mutating func parseObject(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        try enter()
        let container = builder.openContainer(.object)
        position += 1
        var members = 0
        // Which key ordinals this object has named (modulo 256): a second hit may be a repeat.
        var named: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var mayRepeat = false
        skipWhitespace()
        if position < count, base[position] == UInt8(ascii: "}") {
            position += 1
        } else {
            do throws(ParseFailure) {
                while true {
                    skipWhitespace()
                    guard position < count else { throw .syntax(.unexpectedEnd(expected: "a key in quotes"), offset: position) }
                    guard base[position] == UInt8(ascii: "\"") else {
                        throw .syntax(.expected("a key in quotes", found: describeHere()), offset: position)
                    }
                    try parseString(into: &builder, isKey: true)
                    mayRepeat = Self.name(builder.lastKeyOrdinal, in: &named) || mayRepeat
                    try parseColon()
                    try parseMemberValue(into: &builder)
                    members += 1
                    if try endsContainer(UInt8(ascii: "}"), expected: "',' or '}'") { break }
                }
            } catch .spliced {
                try closeSpliced(container, .object, counted: members, into: &builder)
            }
        }
        builder.closeContainer(at: container, count: members)
        if mayRepeat { builder.keepLastOfRepeatedKeys(object: container) }
        depth -= 1
    }

    /// Marks a key's ordinal as named in `named`; true when it was already (or the key is long,
    /// -1: not interned, so only a full check can tell).
    @inline(__always)
    static func name(_ ordinal: Int, in named: inout (UInt64, UInt64, UInt64, UInt64)) -> Bool {
        guard ordinal >= 0 else { return true }
        let bit: UInt64 = 1 << UInt64(ordinal & 63)
        let before: UInt64
        switch (ordinal >> 6) & 3 {
        case 0: before = named.0; named.0 |= bit
        case 1: before = named.1; named.1 |= bit
        case 2: before = named.2; named.2 |= bit
        default: before = named.3; named.3 |= bit
        }
        return before & bit != 0
    }

    /// After a member or element: consumes ',' (false, more follow) or `closer` (true).
    @inline(__always)
    mutating func endsContainer(_ closer: UInt8, expected: String) throws(ParseFailure) -> Bool {
        skipWhitespace()
        guard position < count else { throw .syntax(.unexpectedEnd(expected: expected), offset: position) }
        let next = base[position]
        if next == UInt8(ascii: ",") || next == closer {
            position += 1
            return next == closer
        }
        throw .syntax(.expected(expected, found: describeHere()), offset: position)
    }

    @inline(__always)
    mutating func parseColon() throws(ParseFailure) {
        // A pretty-printed file's `" : "` before a value, in one load.
        if position + 4 <= count {
            let word = UInt32(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt32.self))
            if word & 0x00FF_FFFF == 0x0020_3A20, word >> 24 > 0x20 {
                position += 3
                return
            }
        }
        skipWhitespace()
        guard position < count else { throw .syntax(.unexpectedEnd(expected: "':'"), offset: position) }
        guard base[position] == UInt8(ascii: ":") else {
            throw .syntax(.expected("':'", found: describeHere()), offset: position)
        }
        position += 1
        skipWhitespace()
    }

    mutating func parseArray(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        try enter()
        let container = builder.openContainer(.array)
        position += 1
        var elements = 0
        skipWhitespace()
        if position < count, base[position] == UInt8(ascii: "]") {
            position += 1
        } else {
            do throws(ParseFailure) {
                while true {
                    skipWhitespace()
                    if position == splitPosition { try splice(into: &builder) }
                    _ = try parseValue(into: &builder)
                    elements += 1
                    if position >= nextProgress { try reportProgress(&builder) }
                    if try endsContainer(UInt8(ascii: "]"), expected: "',' or ']'") { break }
                }
            } catch .spliced {
                try closeSpliced(container, .array, counted: elements, into: &builder)
            }
        }
        builder.closeContainer(at: container, count: elements)
        depth -= 1
    }

    func startsMember() -> Bool {
        guard position < count, base[position] == UInt8(ascii: "\"") else { return false }
        var index = position + 1
        while index < count, base[index] != UInt8(ascii: "\"") {
            index += base[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
        while index < count, Self.isWhitespace(base[index]) { index += 1 }
        return index < count && base[index] == UInt8(ascii: ":")
    }

    @inline(__always)
    mutating func enter() throws(ParseFailure) {
        depth += 1
        if depth > deepest { deepest = depth }
        if depth > limits.maximumDepth { throw .syntax(.tooDeep(limit: limits.maximumDepth), offset: position) }
    }

    mutating func reportProgress(_ builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        nextProgress = position + Self.progressInterval
        // Text this parser will still read: up to the other part's start, once one is chosen.
        // The part's nodes arrive in pages of their own: pages cleared for them were dropped.
        let end = split?.publishedPosition.flatMap { $0 > position ? $0 : nil } ?? count
        builder.populateAhead(textDone: position - origin, textLeft: end - position)
        boundaries?.append(builder.nodeCount)
        if let split {
            split.publish(position: position, builder: builder)
            // The other part's start is learnt here; once passed, it can no longer be used.
            splitPosition = split.publishedPosition ?? .max
            if position > splitPosition {
                split.abandon()
                splitPosition = .max
                self.split = nil
            }
        }
        guard let progress else { return }
        do { try progress(position) } catch { throw .cancelled }
    }

    mutating func parseLiteral(_ word: StaticString, _ kind: JSONDocument.Kind, into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        let length = word.utf8CodeUnitCount
        guard position + length <= count, memcmp(base + position, word.utf8Start, length) == 0 else {
            if position + length > count, memcmp(base + position, word.utf8Start, count - position) == 0 {
                throw .syntax(.unexpectedEnd(expected: "'\(word)'"), offset: count)
            }
            throw .syntax(.expected("a value", found: describeHere()), offset: position)
        }
        position += length
        builder.appendScalar(kind)
    }

    // MARK: - Whitespace and errors

    /// JSON's four whitespace bytes.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// No whitespace, the most common case, is one comparison here; a run (a pretty-printed
    /// file's newline and indentation) is one SSE2 step (`almanac_json_skip_whitespace`).
    @inline(__always)
    mutating func skipWhitespace() {
        guard position < count, base[position] <= 0x20 else { return }
        position = almanac_json_skip_whitespace(base, position, count)
    }

    func isDelimiter(_ byte: UInt8) -> Bool {
        Self.isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
    }

    /// What sits at the position, for "expected X, found Y".
    func describeHere() -> String {
        guard position < count else { return "the end of the text" }
        let byte = base[position]
        if byte < 0x20 || byte == 0x7F { return "byte 0x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
        if byte >= 0x80 {
            var end = position + 1
            while end < count, end - position < 4, base[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: UnsafeBufferPointer(start: base + position, count: end - position), as: UTF8.self)
            return "'\(text)'"
        }
        return "'\(Character(Unicode.Scalar(byte)))'"
    }

    func error(_ reason: JSONError.Reason, at offset: Int? = nil) -> JSONError {
        let offset = min(offset ?? position, count)
        let (line, column) = lines.position(of: offset, in: UnsafeBufferPointer(start: base, count: count))
        return JSONError(reason: reason, source: source, offset: offset, line: line, column: column)
    }

}
