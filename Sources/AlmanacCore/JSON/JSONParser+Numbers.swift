import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers: the grammar checked and the value read in one pass.
extension JSONParser {
    static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    mutating func parseNumber(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
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
    func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }

    /// The digit at `index`, from one read of its byte. A mapped file can change under the
    /// parser (another program cuts or rewrites it: the guard then puts zeros where its pages
    /// were), so a byte checked and then read again may differ; arithmetic on the second read
    /// trapped ("arithmetic overflow", status 132) when a '7' turned into a 0 in between.
    @inline(__always)
    func digit(at index: Int) -> UInt8? {
        guard index < count else { return nil }
        let digit = base[index] &- 48
        return digit < 10 ? digit : nil
    }

    func numberError(_ start: Int) -> ParseFailure {
        var end = position
        while end < count, end - start < 24, !isDelimiter(base[end]) { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: max(1, end - start)), as: UTF8.self)
        return .syntax(.invalidNumber(text), offset: start)
    }

    /// Swift's own locale-independent parse, for numbers the fast path cannot do exactly.
    static func slowParse(_ literal: UnsafeBufferPointer<UInt8>) -> Double {
        Double(String(decoding: literal, as: UTF8.self)) ?? .nan
    }
}
