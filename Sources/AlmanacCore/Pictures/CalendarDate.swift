/// ISO 8601 dates read straight from bytes, and the calendar arithmetic date bins need, in UTC.
///
/// Foundation's ISO8601 parser costs microseconds a value; a histogram of a date field reads
/// every record's value, so the few formats data uses are read here by hand.
public enum CalendarDate {
    public static let secondsPerDay = 86_400.0

    /// Seconds since 1970-01-01T00:00:00Z of `2014-12-10`, `2014-12-10T13:52:11.567Z`,
    /// `2014-12-10 13:52`, `…+03:00`; nil for anything else (a time without an offset is UTC).
    public static func seconds(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var position = 0
        func digits(_ count: Int) -> Int? {
            guard position + count <= text.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = text[position + offset]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            position += count
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard position < text.count, text[position] == byte else { return false }
            position += 1
            return true
        }
        guard let year = digits(4), skip(UInt8(ascii: "-")), let month = digits(2), skip(UInt8(ascii: "-")),
              let day = digits(2), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var seconds = Double(days(year: year, month: month, day: day)) * secondsPerDay
        guard position < text.count else { return seconds }
        guard skip(UInt8(ascii: "T")) || skip(UInt8(ascii: " ")), let hour = digits(2), hour < 24,
              skip(UInt8(ascii: ":")), let minute = digits(2), minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if skip(UInt8(ascii: ":")) {
            guard let second = digits(2), second <= 60 else { return nil }
            seconds += Double(second)
            if skip(UInt8(ascii: ".")) {
                var scale = 0.1
                let start = position
                while position < text.count, text[position] >= 0x30, text[position] <= 0x39 {
                    seconds += Double(text[position] - 0x30) * scale
                    scale /= 10
                    position += 1
                }
                guard position > start else { return nil }
            }
        }
        if skip(UInt8(ascii: "Z")) { return position == text.count ? seconds : nil }
        guard position < text.count else { return seconds }
        let sign: Double
        if skip(UInt8(ascii: "+")) { sign = 1 } else if skip(UInt8(ascii: "-")) { sign = -1 } else { return nil }
        guard let offsetHours = digits(2) else { return nil }
        _ = skip(UInt8(ascii: ":"))
        guard let offsetMinutes = digits(2), position == text.count else { return nil }
        return seconds - sign * Double(offsetHours * 3600 + offsetMinutes * 60)
    }

    public static func seconds(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { seconds($0) }
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day since 1970-01-01 (`civil_from_days`).
    public static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `2014`, `2014-12`, `2014-12-10` or `2014-12-10 13:52`, as precise as `unit` asks.
    public static func text(_ seconds: Double, unit: DateUnit) -> String {
        let day = Int((seconds / secondsPerDay).rounded(.down))
        let (year, month, dayOfMonth) = date(days: day)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        switch unit {
        case .year: return yearText
        case .month: return "\(yearText)-\(two(month))"
        case .day: return "\(yearText)-\(two(month))-\(two(dayOfMonth))"
        case .minute:
            let minutes = Int(((seconds - Double(day) * secondsPerDay) / 60).rounded(.down))
            return "\(yearText)-\(two(month))-\(two(dayOfMonth)) \(two(minutes / 60)):\(two(minutes % 60))"
        }
    }

    /// `2014-12-10T00:00:00Z` (with milliseconds when it has them).
    public static func iso8601(_ seconds: Double) -> String {
        let day = Int((seconds / secondsPerDay).rounded(.down))
        let within = seconds - Double(day) * secondsPerDay
        // To the microsecond first: a value one ulp either side of a half millisecond (a median
        // computed by the database or in memory) is written alike.
        let milliseconds = Int(((within * 1_000_000).rounded() / 1000).rounded())
        let (hours, minutes, wholeSeconds) = (milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = text(Double(day) * secondsPerDay, unit: .day) + "T\(two(hours)):\(two(minutes)):\(two(wholeSeconds))"
        if milliseconds % 1000 != 0 {
            let fraction = String(milliseconds % 1000)
            text += "." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }
        return text + "Z"
    }

    /// The start of the year, month or day holding `seconds`, moved by `steps` of that unit.
    static func start(of unit: DateUnit, containing seconds: Double, plus steps: Int = 0) -> Double {
        let day = Int((seconds / secondsPerDay).rounded(.down))
        let (year, month, _) = date(days: day)
        switch unit {
        case .year:
            return Double(days(year: year + steps, month: 1, day: 1)) * secondsPerDay
        case .month:
            let months = year * 12 + (month - 1) + steps
            let (newYear, newMonth) = (months >= 0 ? months / 12 : (months - 11) / 12, ((months % 12) + 12) % 12 + 1)
            return Double(days(year: newYear, month: newMonth, day: 1)) * secondsPerDay
        case .day:
            return Double(day + steps) * secondsPerDay
        case .minute:
            return ((seconds / 60).rounded(.down) + Double(steps)) * 60
        }
    }
}

/// How finely a date is shown, and the calendar unit a date bin spans.
public enum DateUnit: String, Sendable, Equatable {
    case year, month, day, minute
}
