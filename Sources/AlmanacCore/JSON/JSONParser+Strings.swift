import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings: escapes, UTF-8 checks, interned keys.
extension JSONParser {
    /// Short plain strings (most keys) end within sixteen bytes with nothing to check but the
    /// quote: one SSE2 step here, inline. Longer ones and two-byte characters (Cyrillic) mostly
    /// end where `almanac_json_string_run` stops, also here; the full scan below does the rest.
    @inline(__always)
    mutating func parseString(into builder: inout JSONDocumentBuilder, isKey: Bool) throws(ParseFailure) {
        let start = position + 1
        var end = almanac_json_short_string_end(base, start, count)
        if end < 0 {
            // Keys are short: for them this would only be more code in parseObject's loop.
            if isKey { return try parseLongString(into: &builder, isKey: isKey) }
            end = almanac_json_string_run(base, start, count)
            guard end < count, base[end] == UInt8(ascii: "\"") else { return try parseLongString(into: &builder, isKey: isKey) }
        }
        guard end - start <= limits.maximumStringBytes else {
            return try parseLongString(into: &builder, isKey: isKey)
        }
        let text = UnsafeBufferPointer(start: base + start, count: end - start)
        if isKey { builder.appendKey(text) } else { builder.appendString(text, stable: true) }
        position = end + 1
    }

    @inline(never)
    mutating func parseLongString(into builder: inout JSONDocumentBuilder, isKey: Bool) throws(ParseFailure) {
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
            // Most strings end where SSE2 stopped: then the word loop has nothing to do.
            let stoppedAtQuote = index < count && base[index] == UInt8(ascii: "\"")
            while !stoppedAtQuote, index + 8 <= count {
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
                if isKey { builder.appendKey(text) } else { builder.appendString(text, stable: true) }
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

    mutating func parseEscape() throws(ParseFailure) {
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

    mutating func hexQuad(at escapeStart: Int) throws(ParseFailure) -> UInt32 {
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

    func escapeText(at start: Int) -> String {
        let end = min(count, start + 6)
        return String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
    }

    mutating func appendUTF8(_ scalar: UInt32) {
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
    mutating func skipUTF8Sequence() throws(ParseFailure) {
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
}
