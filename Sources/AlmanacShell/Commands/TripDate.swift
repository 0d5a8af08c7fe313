import Foundation

/// Dates as people type them: `today`, `tomorrow`, `friday`, `next friday`, `2026-12-01`,
/// `01.12.2026`, `1 Dec`, `Dec 1`, `1 Dec 2026`.
///
/// The rules, in the order they apply:
/// - a field outside its range is an error naming the date and the field, in every form:
///   `'2026-13-01' is not a date: there is no month 13` (likewise day 0, day 32, year 0) —
///   nothing rolls over into the next month or year;
/// - a day the month does not have is an error naming the date (`30 February 2026 does not
///   exist`);
/// - a weekday (`friday`, `fri`, `пятница`) is the first such day after today — a week ahead
///   when today is that day — and `next friday` the one after that;
/// - a day and month without a year mean the next such day that exists, today included
///   (`29 Feb`: the next leap year's);
/// - years run from 1 to 9999.
enum TripDate {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }

    static func parse(_ text: String, now: Date = Date()) throws -> Date {
        let calendar = calendar
        let today = calendar.startOfDay(for: now)
        let lowered = text.lowercased().trimmingCharacters(in: .whitespaces)
        switch lowered {
        case "today": return today
        case "tomorrow": return calendar.date(byAdding: .day, value: 1, to: today)!
        default: break
        }
        if let day = Weekday.date(lowered, after: today, calendar: calendar) { return day }
        let numbers = lowered.split(separator: "-", omittingEmptySubsequences: false)
        if numbers.count == 3, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
           let year = Int(numbers[0]), let month = Int(numbers[1]), let day = Int(numbers[2]) {
            return try date(year: year, month: month, day: day, typed: text)
        }
        if let dotted = try dayMonthYear(lowered, typed: text, today: today) { return dotted }
        let words = lowered.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." })
        if words.count == 2 || words.count == 3 {
            let (dayText, monthText) = Int(words[0]) != nil ? (words[0], words[1]) : (words[1], words[0])
            if let day = Int(dayText), let month = month(named: String(monthText)) {
                if words.count == 3 {
                    guard let year = Int(words[2]) else { throw notADate(text) }
                    return try date(year: year, month: month, day: day, typed: text)
                }
                return try next(month: month, day: day, from: today, typed: text)
            }
        }
        throw notADate(text)
    }

    /// `01.12.2026` (day, month, year, as Russian and most European users write a date) or
    /// `01.12` (the next 1 December). Nil when the text is not of this shape.
    static func dayMonthYear(_ text: String, typed: String, today: Date) throws -> Date? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts[0].count <= 2, parts[1].count <= 2, let day = Int(parts[0]), let month = Int(parts[1]) else { return nil }
        try checkRanges(month: month, day: day, typed: typed, form: " (day.month.year: 01.12.2026)")
        guard parts.count == 3 else { return try next(month: month, day: day, from: today, typed: typed) }
        guard parts[2].count == 4, let year = Int(parts[2]) else {
            throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: write the year in full (01.12.2026)")
        }
        return try date(year: year, month: month, day: day, typed: typed)
    }

    /// `dec`, `Dec`, `December` → 12.
    static func month(named text: String) -> Int? {
        guard text.count >= 3 else { return nil }
        return monthNames.firstIndex { $0.lowercased().hasPrefix(text) }.map { $0 + 1 }
    }

    /// A month outside 1...12 or a day outside 1...31 is no date in any month.
    static func checkRanges(month: Int, day: Int, typed: String, form: String = "") throws {
        guard (1...12).contains(month) else {
            throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: there is no month \(month)\(form)")
        }
        guard (1...31).contains(day) else {
            throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: there is no day \(day)\(form)")
        }
    }

    /// The date, when every field is in its range and the month has the day.
    static func date(year: Int, month: Int, day: Int, typed: String) throws -> Date {
        try checkRanges(month: month, day: day, typed: typed)
        guard year != 0 else { throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: there is no year 0") }
        guard (1...9999).contains(year) else {
            throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: the year must be from 1 to 9999")
        }
        let calendar = calendar
        let first = calendar.date(from: DateComponents(era: 1, year: year, month: month, day: 1))!
        let days = calendar.range(of: .day, in: .month, for: first)?.count ?? 31
        guard (1...days).contains(day) else {
            throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: \(day) \(monthNames[month - 1]) \(year) does not exist "
                + "(\(monthNames[month - 1]) \(year) has \(days) days)")
        }
        return calendar.date(from: DateComponents(era: 1, year: year, month: month, day: day))!
    }

    /// The next day `day` of `month` that exists, from `today` on.
    static func next(month: Int, day: Int, from today: Date, typed: String) throws -> Date {
        try checkRanges(month: month, day: day, typed: typed)
        let year = calendar.component(.year, from: today)
        // February 29 comes at least once in eight years; other days every year or never.
        for candidate in year...(year + 8) {
            if let date = try? date(year: candidate, month: month, day: day, typed: typed), date >= today { return date }
        }
        throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: \(day) \(monthNames[month - 1]) does not exist")
    }

    static func notADate(_ text: String) -> ShellError {
        .invalid("'\(SafeText.escape(text))' is not a date: use today, tomorrow, friday, next friday, 2026-12-01, 01.12.2026, 1 Dec or 1 Dec 2026")
    }

    static func isPast(_ date: Date, now: Date = Date()) -> Bool { date < calendar.startOfDay(for: now) }

    /// `Tuesday 1 December 2026` (or without the weekday).
    static func text(_ date: Date, weekday: Bool = true) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.calendar = calendar
        formatter.dateFormat = weekday ? "EEEE d MMMM yyyy" : "d MMMM yyyy"
        return formatter.string(from: date)
    }
}
