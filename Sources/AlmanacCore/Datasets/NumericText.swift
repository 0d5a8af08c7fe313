/// Numbers written as text, the way SWAPI does: `"180"`, `"1,000"`, `"2.5"` — and its
/// galactic years, `"19BBY"`, `"41.9BBY"`, `"4ABY"`: years on the Battle of Yavin calendar,
/// read as signed years (before the battle negative), so they sort, filter, describe and bin
/// in time order. The one place text is read as a number: sort, filter (in memory and the
/// literal a PostgreSQL filter binds), describe, histogram, group's aggregates and `fields`
/// all come here.
public enum NumericText {
    public static func value(of text: String) -> Double? {
        var text = text
        return text.withUTF8 { value(utf8: $0) }
    }

    /// The number `bytes` (UTF-8) spell, or nil: spaces around, commas between groups of three
    /// digits (`1,000`; `1,5` is no number: a decimal comma read as a separator was 15), an
    /// exponent, or a galactic year's `BBY`/`ABY` after an unsigned number (any case).
    public static func value(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var (start, end) = trimmed(bytes)
        guard start < end else { return nil }
        var sign = 1.0
        if let era = era(bytes, end: end, start: start) {
            sign = era
            end -= 3
            while end > start, bytes[end - 1] == 0x20 { end -= 1 }
            // A galactic year is a count of years: `-19BBY` or `BBY` alone is no year.
            guard start < end, bytes[start] != UInt8(ascii: "-"), bytes[start] != UInt8(ascii: "+") else { return nil }
        }
        // The digits without commas, on the stack; a String of up to 15 bytes needs no heap either.
        let value: Double? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start) { kept in
            var count = 0
            // Commas group the integer part: one to three digits before the first, three after each.
            var (commas, groupDigits, integerPart) = (0, 0, true)
            for byte in bytes[start..<end] {
                switch byte {
                case 0x30...0x39:
                    if integerPart { groupDigits += 1 }
                case UInt8(ascii: ","):
                    guard integerPart, groupDigits > 0, commas == 0 ? groupDigits <= 3 : groupDigits == 3 else { return nil }
                    commas += 1
                    groupDigits = 0
                    continue
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                    if integerPart, commas > 0, groupDigits != 3 { return nil }
                    integerPart = false
                case UInt8(ascii: "-"), UInt8(ascii: "+"): break
                default: return nil
                }
                kept[count] = byte
                count += 1
            }
            if integerPart, commas > 0, groupDigits != 3 { return nil }
            guard count > 0 else { return nil }
            return Double(String(decoding: UnsafeBufferPointer(rebasing: kept[..<count]), as: UTF8.self))
        }
        guard let value, value.isFinite else { return nil }
        return sign * value
    }

    /// A value a person typed where a number may go (`filter birth_year < 100BBY`): what
    /// `Double` reads, else what text in the data would read as.
    public static func literal(_ text: String) -> Double? {
        Double(text) ?? value(of: text)
    }

    /// Whether `text` is a galactic year (`19BBY`, `4 ABY`), which then shows as one.
    public static func isGalacticYear(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isGalacticYear(utf8: $0) }
    }

    public static func isGalacticYear(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let (start, end) = trimmed(bytes)
        return era(bytes, end: end, start: start) != nil && value(utf8: bytes) != nil
    }

    /// −1 for `BBY` at `end`, 1 for `ABY`, nil otherwise.
    private static func era(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, start: Int) -> Double? {
        guard end - start >= 4 else { return nil }
        let (first, second, third) = (bytes[end - 3] | 0x20, bytes[end - 2] | 0x20, bytes[end - 1] | 0x20)
        guard second == UInt8(ascii: "b"), third == UInt8(ascii: "y") else { return nil }
        return first == UInt8(ascii: "b") ? -1 : first == UInt8(ascii: "a") ? 1 : nil
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return (start, end)
    }
}

/// How a field writes its numbers, so values computed from them (a minimum, a mean, a bin's
/// bounds) are shown the same way: plainly, or as galactic years (`896BBY`, `4ABY`).
public enum NumberNotation: Sendable, Equatable {
    case plain
    case galacticYear

    /// The notation of a value as written.
    public static func of(_ text: String) -> NumberNotation {
        NumericText.isGalacticYear(text) ? .galacticYear : .plain
    }

    /// A galactic year as SWAPI writes one: `19BBY` for −19, `41.9BBY`, `4ABY`, `0BBY` for the
    /// battle's own year. Nil for plain numbers (each view formats those its own way).
    public func text(_ value: Double, decimals: Int? = nil) -> String? {
        guard self == .galacticYear, value.isFinite else { return nil }
        let years = decimals.map { NumberFormat.fixed(abs(value), decimals: $0) } ?? NumberFormat.plain(abs(value))
        return years + (value > 0 ? "ABY" : "BBY")
    }
}

/// What a string value reads as, by the rule sort, describe, histogram and `fields` share:
/// an ISO 8601 date, a number written as text, or text.
public enum TextReading: UInt8, Sendable {
    case text, number, date

    /// Decided from the bytes; text that cannot start a number or a date costs one comparison.
    public static func of(utf8 bytes: UnsafeBufferPointer<UInt8>) -> TextReading {
        guard let first = bytes.first else { return .text }
        let digit = first >= 0x30 && first <= 0x39
        guard digit || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".") || first == 0x20 else {
            return .text
        }
        if digit, bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), CalendarDate.seconds(bytes) != nil { return .date }
        return NumericText.value(utf8: bytes) != nil ? .number : .text
    }

    /// Which reading values counted this way have, as sort and describe decide it: dates when
    /// (nearly) all are — numbers and other text at most a quarter of them —, else numbers
    /// likewise, else none (nil).
    public static func dominant(numbers: Int, dates: Int, texts: Int) -> TextReading? {
        if dates > 0, (numbers + texts) * 4 <= dates { return .date }
        if numbers > 0, texts * 4 <= numbers { return .number }
        return nil
    }
}
