/// Follows a JSON text as it streams in from a pipe or a device, to stop reading at its first
/// byte that cannot be JSON: `/dev/zero` fails at its first byte instead of filling memory.
///
/// Lenient on purpose: it flags only what `JSONParser` is sure to reject at or before the
/// same byte (structure, literals, numbers, string escapes and control characters, nesting
/// past the parser's limit), so the parser, run on what was read up to there (and `excerptBytes` more), reports the
/// error in its own words. It lets through what the parser alone can judge: UTF-8, lone
/// surrogates, and several values in a row (NDJSON is decided by the parser).
struct JSONStreamCheck {
    enum Failure: Equatable {
        /// The byte at this offset of the stream cannot be JSON here.
        case invalid(offset: Int)
        /// The string opened at this offset is longer, escapes decoded, than the parser takes.
        case stringTooLong(opening: Int)
    }

    private enum State {
        case start, byteOrderMark(Int)
        case value, valueOrClose, keyOrClose, key, colon, commaOrClose, afterRoot
        case string(isKey: Bool), escape(isKey: Bool), unicode(isKey: Bool, left: Int)
        case literal(StaticString, next: Int)
        case number(NumberPart)
    }

    /// Where a number is: the grammar of RFC 8259's `number`, one state per part.
    private enum NumberPart {
        case minus, zero, integer, point, fraction, exponentMark, exponentSign, exponent
        var canEnd: Bool { self == .zero || self == .integer || self == .fraction || self == .exponent }
    }

    /// Bytes past a stop that the parser may quote in its error (an escape, a number: 24 at
    /// most), kept when they were read with it.
    static let excerptBytes = 32

    private var state = State.start
    /// Open containers, innermost last: true for an object.
    private var containers: [Bool] = []
    /// Bytes seen before the current chunk.
    private var consumed = 0
    private var stringOpening = 0
    private var stringBytes = 0
    private let maximumDepth: Int
    /// A string of more raw bytes than this decodes to more than the parser's limit (an
    /// escape of at most 6 bytes decodes to at least one).
    private let maximumRawStringBytes: Int

    init(limits: JSONParser.Limits = JSONParser.Limits()) {
        maximumDepth = limits.maximumDepth
        maximumRawStringBytes = 6 * (limits.maximumStringBytes + 1)
    }

    /// Follows the next bytes of the stream; the first failure in them, if any (after which
    /// the check must not be fed again).
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Failure? {
        defer { consumed += bytes.count }
        var index = 0
        while index < bytes.count {
            // Plain string bytes, the most of most texts, in a tight loop.
            if case .string = state {
                let from = index
                while index < bytes.count, bytes[index] >= 0x20, bytes[index] != 0x22, bytes[index] != 0x5C { index += 1 }
                stringBytes += index - from
                if stringBytes > maximumRawStringBytes { return .stringTooLong(opening: stringOpening) }
                guard index < bytes.count else { break }
            }
            if !step(bytes[index], at: consumed + index) { return .invalid(offset: consumed + index) }
            index += 1
        }
        return nil
    }

    /// Takes one byte; false when it cannot be JSON here.
    private mutating func step(_ byte: UInt8, at offset: Int) -> Bool {
        switch state {
        case .start:
            if byte == 0xEF { state = .byteOrderMark(1); return true }
            state = .value
            return step(byte, at: offset)
        case let .byteOrderMark(seen):
            guard byte == (seen == 1 ? 0xBB : 0xBF) else { return false }
            state = seen == 1 ? .byteOrderMark(2) : .value
            return true
        case .value, .afterRoot:
            return Self.isWhitespace(byte) || startValue(byte, at: offset)
        case .valueOrClose:
            if Self.isWhitespace(byte) { return true }
            if byte == UInt8(ascii: "]") { return close() }
            return startValue(byte, at: offset)
        case .keyOrClose, .key:
            if Self.isWhitespace(byte) { return true }
            if case .keyOrClose = state, byte == UInt8(ascii: "}") { return close() }
            guard byte == UInt8(ascii: "\"") else { return false }
            openString(isKey: true, at: offset)
            return true
        case .colon:
            if Self.isWhitespace(byte) { return true }
            guard byte == UInt8(ascii: ":") else { return false }
            state = .value
            return true
        case .commaOrClose:
            if Self.isWhitespace(byte) { return true }
            let inObject = containers.last ?? false
            if byte == UInt8(ascii: ",") {
                state = inObject ? .key : .value
                return true
            }
            guard byte == UInt8(ascii: inObject ? "}" : "]") else { return false }
            return close()
        case let .string(isKey):
            switch byte {
            case UInt8(ascii: "\""): endValue(afterKey: isKey)
            case UInt8(ascii: "\\"): state = .escape(isKey: isKey)
            default: return false // a control character
            }
            return true
        case let .escape(isKey):
            stringBytes += 2
            switch byte {
            case UInt8(ascii: "u"): state = .unicode(isKey: isKey, left: 4)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"): state = .string(isKey: isKey)
            default: return false
            }
            return true
        case let .unicode(isKey, left):
            guard Self.isHexDigit(byte) else { return false }
            stringBytes += 1
            state = left == 1 ? .string(isKey: isKey) : .unicode(isKey: isKey, left: left - 1)
            return true
        case let .literal(word, next):
            guard byte == word.utf8Start[next] else { return false }
            if next + 1 == word.utf8CodeUnitCount { endValue() } else { state = .literal(word, next: next + 1) }
            return true
        case let .number(part):
            if let following = Self.number(after: part, byte) {
                state = .number(following)
                return true
            }
            // The number ends here (or is incomplete): the byte belongs to what follows.
            guard part.canEnd else { return false }
            endValue()
            return step(byte, at: offset)
        }
    }

    private mutating func startValue(_ byte: UInt8, at offset: Int) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            // The parser refuses the level past its limit as it opens it.
            guard containers.count < maximumDepth else { return false }
            containers.append(byte == UInt8(ascii: "{"))
            state = byte == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
        case UInt8(ascii: "\""): openString(isKey: false, at: offset)
        case UInt8(ascii: "t"): state = .literal("true", next: 1)
        case UInt8(ascii: "f"): state = .literal("false", next: 1)
        case UInt8(ascii: "n"): state = .literal("null", next: 1)
        case UInt8(ascii: "-"): state = .number(.minus)
        case UInt8(ascii: "0"): state = .number(.zero)
        case UInt8(ascii: "1")...UInt8(ascii: "9"): state = .number(.integer)
        default: return false
        }
        return true
    }

    private mutating func openString(isKey: Bool, at offset: Int) {
        stringOpening = offset
        stringBytes = 0
        state = .string(isKey: isKey)
    }

    private mutating func close() -> Bool {
        containers.removeLast()
        endValue()
        return true
    }

    private mutating func endValue(afterKey: Bool = false) {
        state = afterKey ? .colon : containers.isEmpty ? .afterRoot : .commaOrClose
    }

    /// The part a number moves to with `byte`, or nil when the byte does not continue it.
    private static func number(after part: NumberPart, _ byte: UInt8) -> NumberPart? {
        let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        let exponentMark = byte | 0x20 == UInt8(ascii: "e")
        switch part {
        case .minus: return byte == UInt8(ascii: "0") ? .zero : digit ? .integer : nil
        case .zero: return byte == UInt8(ascii: ".") ? .point : exponentMark ? .exponentMark : nil
        case .integer: return digit ? .integer : byte == UInt8(ascii: ".") ? .point : exponentMark ? .exponentMark : nil
        case .point: return digit ? .fraction : nil
        case .fraction: return digit ? .fraction : exponentMark ? .exponentMark : nil
        case .exponentMark: return digit ? .exponent : byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") ? .exponentSign : nil
        case .exponentSign, .exponent: return digit ? .exponent : nil
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }
}
