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
    /// `1,5` and `1.000,5` (dots between groups of three digits, then a decimal comma; `1.000`
    /// alone stays a decimal point). Not `007`: leading zeros mark a code (a zip, an id), which
    /// stays text.
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
        if decimalComma, index < count, base[index] == UInt8(ascii: "."), digits > 0, digits <= 3, !truncated,
           groupedBeforeComma(base, from: index, count: count) {
            // `1.000,5`: the groups' digits join the integer part; the comma comes next.
            while base[index] == UInt8(ascii: ".") {
                for offset in 1...3 {
                    if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(base[index + offset] &- 48); digits += 1 } else { exponent += 1; truncated = true }
                }
                index += 4
            }
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

    /// Whether a cell starting with `byte` may be a number (spaces around one are let be).
    @inline(__always)
    static func mayStartNumber(_ byte: UInt8) -> Bool {
        byte &- 48 < 10 || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == 0x20
    }

    /// Whether `.ddd` groups, one or more, then `,` and a digit start at `index`.
    private static func groupedBeforeComma(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Bool {
        var index = index
        var groups = 0
        while index + 3 < count, base[index] == UInt8(ascii: "."),
              base[index + 1] &- 48 < 10, base[index + 2] &- 48 < 10, base[index + 3] &- 48 < 10 {
            index += 4
            groups += 1
        }
        return groups > 0 && index + 1 < count && base[index] == UInt8(ascii: ",") && base[index + 1] &- 48 < 10
    }

    /// The JSON literal of a number `number` accepted: no `+`, a decimal point (a decimal
    /// comma's grouping dots left out: `1.000,5` is `1000.5`).
    static func normalized(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var literal = Array(bytes)
        if literal.first == UInt8(ascii: "+") { literal.removeFirst() }
        if literal.contains(UInt8(ascii: ",")) { literal.removeAll { $0 == UInt8(ascii: ".") } }
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
