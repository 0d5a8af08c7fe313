/// What a CSV cell's text is: a number, a boolean, a date, a word for no value, or text. A
/// column's type is the one every cell of it agrees on (`CSVColumns`).
enum CSVCell {
    enum Kind: Equatable { case number, boolean, date, nullWord, text }

    /// The kind of a cell (spaces around it ignored), for sniffing a header.
    static func kind(of bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Kind {
        let trimmed = trimmed(bytes)
        if number(trimmed, decimalComma: decimalComma) != nil { return .number }
        if boolean(trimmed) != nil { return .boolean }
        if isDate(trimmed) { return .date }
        return .text
    }

    /// Without the spaces around it.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let base = bytes.baseAddress else { return bytes }
        var start = 0
        var end = bytes.count
        while start < end, base[start] == 0x20 { start += 1 }
        while end > start, base[end - 1] == 0x20 { end -= 1 }
        return UnsafeBufferPointer(start: base + start, count: end - start)
    }

    /// A number as JSON writes them, and as spreadsheets do: a `+` sign, and (`decimalComma`)
    /// `1,5`. Not `007`: leading zeros mark a code (a zip, an id), which stays text.
    struct Number {
        var value: Double
        /// The literal differs from JSON's (a `+`, a decimal comma): `normalize` writes it.
        var needsNormalizing: Bool
        /// Which decimal separator it has, if any.
        var separator: UInt8?
    }

    @inline(__always)
    static func number(_ bytes: UnsafeBufferPointer<UInt8>, decimalComma: Bool) -> Number? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        let count = bytes.count
        var index = 0
        var negative = false
        var plus = false
        if base[0] == UInt8(ascii: "-") { negative = true; index = 1 } else if base[0] == UInt8(ascii: "+") { plus = true; index = 1 }
        guard index < count, base[index] &- 48 < 10 else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var truncated = false
        if base[index] == UInt8(ascii: "0") {
            index += 1
            if index < count, base[index] &- 48 < 10 { return nil }
        } else {
            while index < count, base[index] &- 48 < 10 {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(base[index] &- 48); digits += 1 } else { exponent += 1; truncated = true }
                index += 1
            }
        }
        // Integers, most numbers of most files: no more to read.
        if index == count, digits < 16, !plus {
            let value = Double(mantissa)
            return Number(value: negative ? -value : value, needsNormalizing: false, separator: nil)
        }
        var separator: UInt8?
        if index < count, base[index] == UInt8(ascii: ".") || (decimalComma && base[index] == UInt8(ascii: ",")) {
            separator = base[index]
            index += 1
            guard index < count, base[index] &- 48 < 10 else { return nil }
            while index < count, base[index] &- 48 < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(base[index] &- 48)
                    if mantissa != 0 { digits += 1 }
                    exponent -= 1
                } else {
                    truncated = true
                }
                index += 1
            }
        }
        var exponentInRange = true
        if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-") {
                exponentNegative = base[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < count, base[index] &- 48 < 10 else { return nil }
            var written = 0
            while index < count, base[index] &- 48 < 10 {
                if written < 100_000 { written = written * 10 + Int(base[index] &- 48) } else { exponentInRange = false }
                index += 1
            }
            exponent += exponentNegative ? -written : written
        }
        guard index == count else { return nil }
        let needsNormalizing = plus || separator == UInt8(ascii: ",")
        var value: Double
        if needsNormalizing || !exponentInRange {
            var literal = normalized(bytes)
            value = literal.withUnsafeBufferPointer { literal in
                exponentInRange
                    ? JSONParser.value(of: literal, mantissa: mantissa, exponent: exponent, negative: negative, truncated: truncated, digits: digits)
                    : JSONParser.slowParse(literal)
            }
            literal.removeAll()
        } else {
            value = JSONParser.value(of: bytes, mantissa: mantissa, exponent: exponent, negative: negative, truncated: truncated, digits: digits)
        }
        return Number(value: value, needsNormalizing: needsNormalizing, separator: separator)
    }

    /// The JSON literal of a number `number` accepted: no `+`, a decimal point.
    static func normalized(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var literal = Array(bytes)
        if literal.first == UInt8(ascii: "+") { literal.removeFirst() }
        for index in literal.indices where literal[index] == UInt8(ascii: ",") { literal[index] = UInt8(ascii: ".") }
        return literal
    }

    /// `true` or `false`, in any case.
    @inline(__always)
    static func boolean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.count == 4 || bytes.count == 5, let base = bytes.baseAddress else { return nil }
        func lowered(_ index: Int) -> UInt8 { base[index] | 0x20 }
        if bytes.count == 4, lowered(0) == 0x74, lowered(1) == 0x72, lowered(2) == 0x75, lowered(3) == 0x65 { return true }
        if bytes.count == 5, lowered(0) == 0x66, lowered(1) == 0x61, lowered(2) == 0x6C, lowered(3) == 0x73, lowered(4) == 0x65 { return false }
        return nil
    }

    /// The ways files write "no value" besides an empty cell: `NULL`, `NA`, `N/A`, `NaN`,
    /// `\N` (PostgreSQL's COPY), `-`, `none`, `unknown`. In a column of numbers or booleans
    /// they are null; in a column of text they stay text (`NA` may be Namibia).
    static func isNullWord(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= 7, bytes.count > 0 else { return false }
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return nullWords.contains(lowered)
    }

    static let nullWords: Set<[UInt8]> = Set(["null", "na", "n/a", "nan", "\\n", "-", "none", "unknown", "(none)", "#n/a"].map { Array($0.utf8) })

    /// `2026-11-27` (and ISO times), `27.11.2026`, `11/27/2026`: for sniffing a header only.
    static func isDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if CalendarDate.seconds(bytes) != nil { return true }
        var parts: [Int] = []
        var current = 0
        var length = 0
        var separator: UInt8?
        for byte in bytes {
            if byte &- 48 < 10 {
                current += 1
                length += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/"), separator == nil || separator == byte, current > 0 {
                separator = byte
                parts.append(current)
                current = 0
            } else {
                return false
            }
        }
        parts.append(current)
        return parts.count == 3 && parts[0] <= 2 && parts[1] <= 2 && (parts[2] == 2 || parts[2] == 4) && parts.allSatisfy { $0 > 0 } && length > 0
    }
}
