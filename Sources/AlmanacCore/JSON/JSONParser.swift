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

    private let base: UnsafePointer<UInt8>
    private let count: Int
    private var position = 0
    private let source: String
    private let limits: Limits
    private var depth = 0
    private var nextProgress = JSONParser.progressInterval
    private let progress: Progress?
    private var scratch: [UInt8] = []
    /// The deepest nesting reached (relative to where a suffix parse started).
    private var deepest = 0
    private var split: JSONSplit?
    /// Where the other thread's part starts, once it is known; `Int.max` otherwise.
    private var splitPosition = Int.max
    /// Closing the containers around a spliced part: its levels, and the next one to close.
    private var unwinding: (suffix: JSONSplit.Suffix, base: Int, next: Int)?

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
        return try parser.parseDocument(into: &builder)
    }

    /// Parses the rest of a text from `start`, an element of an array other than its first,
    /// without knowing what encloses that array: the elements to its end, then the rest of
    /// each enclosing container (an object or an array, as its closing bracket and its
    /// members tell) until the text ends. `builder` must be detached.
    static func parseSuffix(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, source: String, into builder: inout JSONDocumentBuilder,
        limits: Limits = Limits(), progress: Progress? = nil
    ) -> (levels: [JSONSplit.Level], deepest: Int)? {
        guard let base = bytes.baseAddress, start > 0, start < bytes.count else { return nil }
        var parser = JSONParser(base: base, count: bytes.count, source: source, limits: limits, progress: progress, lines: LineTracker())
        parser.position = start
        parser.nextProgress = start + Self.progressInterval
        do {
            let levels = try parser.parseSuffix(into: &builder)
            return (levels, parser.deepest)
        } catch {
            return nil
        }
    }

    /// Parses newline-delimited JSON: one value per non-blank line.
    public static func parseLines(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, into builder: inout JSONDocumentBuilder,
        limits: Limits = Limits(), progress: Progress? = nil, lines: LineTracker = LineTracker()
    ) throws(LoadFailure) -> [Int] {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw .json(JSONError(reason: .empty, source: source, offset: 0, line: 1, column: 1))
        }
        var parser = JSONParser(base: base, count: bytes.count, source: source, limits: limits, progress: progress, lines: lines)
        var roots: [Int] = []
        while true {
            parser.skipWhitespace()
            if parser.position >= parser.count { break }
            let root = try parser.parseValueChecked(into: &builder)
            roots.append(root)
            builder.addRoot(root)
            // The rest of the line must be blank.
            while parser.position < parser.count, parser.base[parser.position] == 0x20 || parser.base[parser.position] == 0x09
                || parser.base[parser.position] == 0x0D {
                parser.position += 1
            }
            if parser.position < parser.count, parser.base[parser.position] != 0x0A {
                throw .json(parser.error(.expected("a new line after the value", found: parser.describeHere())))
            }
        }
        guard !roots.isEmpty else {
            throw .json(JSONError(reason: .empty, source: source, offset: 0, line: 1, column: 1))
        }
        return roots
    }

    private let lines: LineTracker

    private init(base: UnsafePointer<UInt8>, count: Int, source: String, limits: Limits, progress: Progress?, lines: LineTracker) {
        self.lines = lines
        self.base = base
        self.count = count
        self.source = source
        self.limits = limits
        self.progress = progress
    }

    private mutating func parseDocument(into builder: inout JSONDocumentBuilder) throws(LoadFailure) -> Int {
        // A UTF-8 byte order mark is tolerated.
        if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { position = 3 }
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

    private mutating func parseValueChecked(into builder: inout JSONDocumentBuilder) throws(LoadFailure) -> Int {
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

    private enum ParseFailure: Error {
        case syntax(JSONError.Reason, offset: Int)
        case cancelled
        /// The other thread's part was taken in: each enclosing container closes as this
        /// passes through it.
        case spliced
        /// The other part does not fit the containers it was meant to end (an invalid text).
        case splitMismatch
    }

    private mutating func parseValue(into builder: inout JSONDocumentBuilder) throws(ParseFailure) -> Int {
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

    private mutating func parseObject(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
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
                    _ = try parseValue(into: &builder)
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
    private static func name(_ ordinal: Int, in named: inout (UInt64, UInt64, UInt64, UInt64)) -> Bool {
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
    private mutating func endsContainer(_ closer: UInt8, expected: String) throws(ParseFailure) -> Bool {
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
    private mutating func parseColon() throws(ParseFailure) {
        skipWhitespace()
        guard position < count else { throw .syntax(.unexpectedEnd(expected: "':'"), offset: position) }
        guard base[position] == UInt8(ascii: ":") else {
            throw .syntax(.expected("':'", found: describeHere()), offset: position)
        }
        position += 1
        skipWhitespace()
    }

    private mutating func parseArray(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
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
                    if position >= nextProgress { try reportProgress(builder) }
                    if try endsContainer(UInt8(ascii: "]"), expected: "',' or ']'") { break }
                }
            } catch .spliced {
                try closeSpliced(container, .array, counted: elements, into: &builder)
            }
        }
        builder.closeContainer(at: container, count: elements)
        depth -= 1
    }

    // MARK: - Splitting with another thread

    /// At the element where the other thread's part starts: take its nodes when it parsed
    /// the rest of the text and fits here; otherwise go on alone.
    private mutating func splice(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        splitPosition = .max
        guard let suffix = split?.waitForSuffix(), suffix.levels.count == depth,
              depth + suffix.deepest <= limits.maximumDepth else { return }
        let base = builder.appendDetached(suffix.builder)
        suffix.builder = JSONDocumentBuilder()
        split?.markSpliced()
        unwinding = (suffix, base, 0)
        // The rest was parsed, and its pages given back, by the other thread: counting its
        // lines would read them all in again. An error past here counts from the bytes.
        lines.stopCounting(at: position)
        position = count
        throw .spliced
    }

    /// Closes a container the spliced part ends, with the members it added; passes the
    /// unwinding on to the enclosing container.
    private mutating func closeSpliced(_ container: Int, _ kind: JSONDocument.Kind, counted: Int,
                                       into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        guard var unwinding, unwinding.next < unwinding.suffix.levels.count else { throw .splitMismatch }
        let level = unwinding.suffix.levels[unwinding.next]
        guard level.kind == kind else { throw .splitMismatch }
        // The element the split came in (the next one, at the innermost level) was not counted yet.
        let total = counted + (unwinding.next == 0 ? 0 : 1) + level.count
        builder.closeContainer(at: container, count: total, end: unwinding.base + level.end)
        // Nodes follow it already, so a repeated key cannot be dropped here: parse on one thread.
        if kind == .object, builder.repeatsAKey(object: container) { throw .splitMismatch }
        unwinding.next += 1
        self.unwinding = unwinding
        depth -= 1
        throw .spliced
    }

    /// The suffix parse proper (see `parseSuffix(_:from:…)`): the innermost level is an
    /// array whose next element starts here; each level's kind is learnt from its members
    /// (a string followed by ':' is a key) or its closing bracket.
    private mutating func parseSuffix(into builder: inout JSONDocumentBuilder) throws(ParseFailure) -> [JSONSplit.Level] {
        var levels: [JSONSplit.Level] = []
        var kind: JSONDocument.Kind? = .array
        var items = 0
        var expectingItem = true
        while true {
            while true {
                if expectingItem {
                    skipWhitespace()
                    if kind == nil { kind = startsMember() ? .object : .array }
                    if kind == .object {
                        guard position < count, base[position] == UInt8(ascii: "\"") else {
                            throw .syntax(.expected("a key in quotes", found: describeHere()), offset: position)
                        }
                        try parseString(into: &builder, isKey: true)
                        try parseColon()
                    }
                    _ = try parseValue(into: &builder)
                    items += 1
                    if position >= nextProgress { try reportProgress(builder) }
                }
                skipWhitespace()
                guard position < count else { throw .syntax(.unexpectedEnd(expected: "',' or a closing bracket"), offset: position) }
                let next = base[position]
                position += 1
                if next == UInt8(ascii: ",") {
                    expectingItem = true
                    continue
                }
                if next == UInt8(ascii: "]"), kind != .object { kind = .array; break }
                if next == UInt8(ascii: "}"), kind != .array { kind = .object; break }
                position -= 1
                throw .syntax(.expected("',' or a closing bracket", found: describeHere()), offset: position)
            }
            levels.append(JSONSplit.Level(kind: kind ?? .array, count: items, end: builder.nodeCount))
            skipWhitespace()
            if position >= count { return levels }
            // Back in the enclosing container, right after the member that held the one just closed.
            depth = -levels.count
            kind = nil
            items = 0
            expectingItem = false
        }
    }

    /// Whether the text here is a string followed by ':' (an object's key).
    private func startsMember() -> Bool {
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
    private mutating func enter() throws(ParseFailure) {
        depth += 1
        if depth > deepest { deepest = depth }
        if depth > limits.maximumDepth { throw .syntax(.tooDeep(limit: limits.maximumDepth), offset: position) }
    }

    private mutating func reportProgress(_ builder: JSONDocumentBuilder) throws(ParseFailure) {
        nextProgress = position + Self.progressInterval
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

    private mutating func parseLiteral(_ word: StaticString, _ kind: JSONDocument.Kind, into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
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

    // MARK: - Strings

    private mutating func parseString(into builder: inout JSONDocumentBuilder, isKey: Bool) throws(ParseFailure) {
        let opening = position
        position += 1
        let start = position
        // Fast path: no escapes, so the text is a slice of the input. Sixteen bytes of ASCII
        // and two-byte characters (Cyrillic, accented Latin) are checked at a time
        // (`almanac_json_string_run`), eight plain ASCII bytes where SSE2 is missing, and
        // whatever that stops at one byte at a time below.
        var index = position
        let base = self.base
        let count = self.count
        scan: while true {
            index = almanac_json_string_run(base, index, count)
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let special = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                    | (word &- ones &* 0x20) | word
                if special & highs != 0 { break }
                index += 8
            }
            guard index < count else { break scan }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                let length = index - start
                if length > limits.maximumStringBytes { throw .syntax(.stringTooLong(limit: limits.maximumStringBytes), offset: opening) }
                let text = UnsafeBufferPointer(start: base + start, count: length)
                if isKey { builder.appendKey(text) } else { builder.appendString(text) }
                position = index + 1
                return
            }
            if byte == UInt8(ascii: "\\") { break scan }
            if byte < 0x20 { throw .syntax(.controlCharacterInString(byte), offset: index) }
            if byte < 0x80 {
                index += 1
            } else if byte >= 0xC2, byte <= 0xDF, index + 1 < count, base[index + 1] & 0xC0 == 0x80 {
                index += 2
            } else {
                position = index
                try skipUTF8Sequence()
                index = position
            }
        }
        position = index
        guard position < count else { throw .syntax(.unexpectedEnd(expected: "'\"' to close the string"), offset: position) }
        // Slow path: copy what came before the first escape, then decode the rest.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: position - start))
        while position < count {
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                if scratch.count > limits.maximumStringBytes { throw .syntax(.stringTooLong(limit: limits.maximumStringBytes), offset: opening) }
                scratch.withUnsafeBufferPointer { if isKey { builder.appendKey($0) } else { builder.appendString($0) } }
                position += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                try parseEscape()
            } else if byte < 0x20 {
                throw .syntax(.controlCharacterInString(byte), offset: position)
            } else if byte >= 0x80 {
                let sequenceStart = position
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(start: base + sequenceStart, count: position - sequenceStart))
            } else {
                scratch.append(byte)
                position += 1
            }
        }
        throw .syntax(.unexpectedEnd(expected: "'\"' to close the string"), offset: position)
    }

    private mutating func parseEscape() throws(ParseFailure) {
        let escapeStart = position
        guard position + 1 < count else { throw .syntax(.unexpectedEnd(expected: "an escape"), offset: position) }
        let letter = base[position + 1]
        position += 2
        switch letter {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad(at: escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low one.
                guard position + 1 < count, base[position] == UInt8(ascii: "\\"), base[position + 1] == UInt8(ascii: "u") else {
                    throw .syntax(.loneSurrogate(escapeText(at: escapeStart)), offset: escapeStart)
                }
                let lowStart = position
                position += 2
                let low = try hexQuad(at: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw .syntax(.loneSurrogate(escapeText(at: escapeStart)), offset: escapeStart)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw .syntax(.loneSurrogate(escapeText(at: escapeStart)), offset: escapeStart)
            }
            appendUTF8(scalar)
        default:
            throw .syntax(.invalidEscape(escapeText(at: escapeStart)), offset: escapeStart)
        }
    }

    private mutating func hexQuad(at escapeStart: Int) throws(ParseFailure) -> UInt32 {
        guard position + 4 <= count else { throw .syntax(.unexpectedEnd(expected: "four hex digits"), offset: count) }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = base[position + offset]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw .syntax(.invalidEscape(escapeText(at: escapeStart)), offset: escapeStart)
            }
            value = value << 4 | digit
        }
        position += 4
        return value
    }

    private func escapeText(at start: Int) -> String {
        let end = min(count, start + 6)
        return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Validates one multi-byte UTF-8 sequence at the position and moves past it.
    @inline(__always)
    private mutating func skipUTF8Sequence() throws(ParseFailure) {
        let lead = base[position]
        let length: Int
        var minimum: UInt8 = 0x80
        var maximum: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; minimum = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; maximum = 0x9F  // no UTF-16 surrogates
        case 0xF0: length = 4; minimum = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; maximum = 0x8F
        default: throw .syntax(.invalidUTF8, offset: position)
        }
        guard position + length <= count else {
            throw .syntax(position + length > count ? .unexpectedEnd(expected: "the rest of a UTF-8 character") : .invalidUTF8, offset: position)
        }
        let second = base[position + 1]
        guard second >= minimum, second <= maximum else { throw .syntax(.invalidUTF8, offset: position) }
        for offset in 2..<length where base[position + offset] & 0xC0 != 0x80 {
            throw .syntax(.invalidUTF8, offset: position)
        }
        position += length
    }

    // MARK: - Numbers

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    private mutating func parseNumber(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        let start = position
        var negative = false
        if base[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        guard position < count, isDigit(base[position]) else { throw numberError(start) }
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if position < count, isDigit(base[position]) { throw numberError(start) }
        } else {
            while let digit = digit(at: position) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit); digits += 1 } else { exponent += 1 }
                position += 1
            }
        }
        if position < count, base[position] == UInt8(ascii: ".") {
            position += 1
            guard position < count, isDigit(base[position]) else { throw numberError(start) }
            while let digit = digit(at: position) {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                }
                position += 1
            }
        }
        var exact = digits < 19
        if position < count, base[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < count, base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-") {
                exponentNegative = base[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < count, isDigit(base[position]) else { throw numberError(start) }
            var written = 0
            while let digit = digit(at: position) {
                if written < 100_000 { written = written * 10 + Int(digit) } else { exact = false }
                position += 1
            }
            exponent += exponentNegative ? -written : written
        }
        let literal = UnsafeBufferPointer(start: base + start, count: position - start)
        var value: Double
        // Clinger's fast path: exact when the mantissa and the power of ten are both exact doubles.
        if exact, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            value = Double(mantissa)
            value = exponent < 0 ? value / Self.powersOfTen[-exponent] : value * Self.powersOfTen[exponent]
            if negative { value = -value }
        } else {
            value = Self.slowParse(literal)
        }
        builder.appendNumber(literal, value: value)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }

    /// The digit at `index`, from one read of its byte. A mapped file can change under the
    /// parser (another program cuts or rewrites it: the guard then puts zeros where its pages
    /// were), so a byte checked and then read again may differ; arithmetic on the second read
    /// trapped ("arithmetic overflow", status 132) when a '7' turned into a 0 in between.
    @inline(__always)
    private func digit(at index: Int) -> UInt8? {
        guard index < count else { return nil }
        let digit = base[index] &- 48
        return digit < 10 ? digit : nil
    }

    private func numberError(_ start: Int) -> ParseFailure {
        var end = position
        while end < count, end - start < 24, !isDelimiter(base[end]) { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: max(1, end - start)), as: UTF8.self)
        return .syntax(.invalidNumber(text), offset: start)
    }

    /// Swift's own locale-independent parse, for numbers the fast path cannot do exactly.
    private static func slowParse(_ literal: UnsafeBufferPointer<UInt8>) -> Double {
        Double(String(decoding: literal, as: UTF8.self)) ?? .nan
    }

    // MARK: - Whitespace and errors

    /// JSON's four whitespace bytes.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < count, Self.isWhitespace(base[position]) { position += 1 }
    }

    private func isDelimiter(_ byte: UInt8) -> Bool {
        Self.isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
    }

    /// What sits at the position, for "expected X, found Y".
    private func describeHere() -> String {
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

    private func error(_ reason: JSONError.Reason, at offset: Int? = nil) -> JSONError {
        let offset = min(offset ?? position, count)
        let (line, column) = lines.position(of: offset, in: UnsafeBufferPointer(start: base, count: count))
        return JSONError(reason: reason, source: source, offset: offset, line: line, column: column)
    }

}
