import CGlibc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers: the grammar checked and the value read in one pass.
extension JSONParser {
    /// 1e0…1e22, all exact doubles. A literal, so the table is built at compile time (a computed
    /// one cost a `swift_once` check at every number).
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    mutating func parseNumber(into builder: inout JSONDocumentBuilder) throws(ParseFailure) {
        let start = position
        var negative = false
        if base[position] == UInt8(ascii: "-") { negative = true; position += 1 }
        // The first 19 significant digits (they fit a UInt64); those after them only move the
        // exponent (integer part) or are dropped (fraction), and `truncated` says so.
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var truncated = false
        guard position < count, isDigit(base[position]) else { throw numberError(start) }
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if position < count, isDigit(base[position]) { throw numberError(start) }
        } else {
            while true {
                // Eight bytes at a time while eight more digits still fit the 19.
                if digits <= 11, position &+ 8 <= count {
                    let word = EightDigits.load(base + position)
                    let run = EightDigits.leadingDigitCount(word)
                    guard run > 0 else { break }
                    mantissa = mantissa &* EightDigits.powersOfTen[run] &+ EightDigits.value(EightDigits.aligned(word, run: run))
                    digits += run
                    position += run
                    if run < 8 { break }
                    continue
                }
                guard let digit = digit(at: position) else { break }
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit); digits += 1 } else { exponent += 1; truncated = true }
                position += 1
            }
        }
        if position < count, base[position] == UInt8(ascii: ".") {
            position += 1
            guard position < count, isDigit(base[position]) else { throw numberError(start) }
            while true {
                if digits <= 11, position &+ 8 <= count {
                    let word = EightDigits.load(base + position)
                    let run = EightDigits.leadingDigitCount(word)
                    guard run > 0 else { break }
                    let aligned = EightDigits.aligned(word, run: run)
                    // Zeros before the first significant digit count as no digits (0.000123).
                    digits += mantissa == 0 ? EightDigits.significantCount(aligned) : run
                    mantissa = mantissa &* EightDigits.powersOfTen[run] &+ EightDigits.value(aligned)
                    exponent -= run
                    position += run
                    if run < 8 { break }
                    continue
                }
                guard let digit = digit(at: position) else { break }
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                } else {
                    truncated = true
                }
                position += 1
            }
        }
        var exponentInRange = true
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
                if written < 100_000 { written = written * 10 + Int(digit) } else { exponentInRange = false }
                position += 1
            }
            exponent += exponentNegative ? -written : written
        }
        let literal = UnsafeBufferPointer(start: base + start, count: position - start)
        let value = exponentInRange
            ? Self.value(of: literal, mantissa: mantissa, exponent: exponent, negative: negative, truncated: truncated, digits: digits)
            : Self.slowParse(literal)
        builder.appendNumber(literal, value: value)
    }

    /// The double nearest `mantissa × 10^exponent`, exactly as strtod reads `literal`.
    @inline(__always)
    static func value(
        of literal: UnsafeBufferPointer<UInt8>, mantissa: UInt64, exponent: Int, negative: Bool, truncated: Bool, digits: Int
    ) -> Double {
        // Clinger's fast path: exact when the mantissa and the power of ten are both exact doubles.
        if digits < 19, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            let value = Double(mantissa)
            let scaled = exponent < 0 ? value / Self.powersOfTen[-exponent] : value * Self.powersOfTen[exponent]
            return negative ? -scaled : scaled
        }
        // Digits dropped: the literal lies between mantissa and mantissa + 1 (× 10^exponent),
        // so the double is known when both ends round to the same one.
        if let value = DecimalToDouble.eiselLemire(mantissa: mantissa, exponent: exponent, negative: negative),
           !truncated || DecimalToDouble.eiselLemire(mantissa: mantissa &+ 1, exponent: exponent, negative: negative)?.bitPattern == value.bitPattern {
            return value
        }
        return slowParse(literal)
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
