import Foundation

/// Dates as people type them: `today`, `tomorrow`, `2026-12-01`, `01.12.2026`, `1 Dec`, `Dec 1`, `1 Dec 2026`.
///
/// The rules, in the order they apply:
/// - the year 0 reads as 1 (there is no year 0 between 1 BC and AD 1; `0000-01-01` is a typo
///   for the first day there is);
/// - a month past 12 or below 1 rolls into the next or the previous year, as a calendar would
///   count on: `2026-13-01` is 1 January 2027, `2026-00-10` 10 December 2025;
/// - a day the month does not have is an error naming the date (`30 February 2026 does not
///   exist`) — a day is never rolled into the next month;
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
        let numbers = lowered.split(separator: "-", omittingEmptySubsequences: false)
        if numbers.count == 3, numbers.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
           let year = Int(numbers[0]), let month = Int(numbers[1]), let day = Int(numbers[2]) {
            // Months roll over into years: month 13 is January of the next year, 0 December of the previous.
            let shifted = month - 1
            let rolledYear = max(year, 1) + Int((Double(shifted) / 12).rounded(.down))
            let rolledMonth = ((shifted % 12) + 12) % 12 + 1
            return try date(year: rolledYear, month: rolledMonth, day: day, typed: text)
        }
        if let dotted = try dayMonthYear(lowered, typed: text, today: today) { return dotted }
        let words = lowered.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." })
        if words.count == 2 || words.count == 3 {
            let (dayText, monthText) = Int(words[0]) != nil ? (words[0], words[1]) : (words[1], words[0])
            if let day = Int(dayText), let month = month(named: String(monthText)) {
                if words.count == 3 {
                    guard let year = Int(words[2]) else { throw notADate(text) }
                    return try date(year: max(year, 1), month: month, day: day, typed: text)
                }
                return try next(month: month, day: day, from: today, typed: text)
            }
        }
        throw notADate(text)
    }

    /// `01.12.2026` (day, month, year, as Russian and most European users write a date) or
    /// `01.12` (the next 1 December). The month is 1 to 12 here: `01.13.2026` is more likely a
    /// month and day swapped than a month to roll over. Nil when the text is not of this shape.
    static func dayMonthYear(_ text: String, typed: String, today: Date) throws -> Date? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts[0].count <= 2, parts[1].count <= 2, let day = Int(parts[0]), let month = Int(parts[1]) else { return nil }
        guard (1...12).contains(month) else {
            throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: there is no month \(month) (day.month.year: 01.12.2026)")
        }
        guard parts.count == 3 else { return try next(month: month, day: day, from: today, typed: typed) }
        guard parts[2].count == 4, let year = Int(parts[2]) else {
            throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: write the year in full (01.12.2026)")
        }
        return try date(year: max(year, 1), month: month, day: day, typed: typed)
    }

    /// `dec`, `Dec`, `December` → 12.
    static func month(named text: String) -> Int? {
        guard text.count >= 3 else { return nil }
        return monthNames.firstIndex { $0.lowercased().hasPrefix(text) }.map { $0 + 1 }
    }

    /// The date, when the month has the day.
    static func date(year: Int, month: Int, day: Int, typed: String) throws -> Date {
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
        let year = calendar.component(.year, from: today)
        // February 29 comes at least once in eight years; other days every year or never.
        for candidate in year...(year + 8) {
            if let date = try? date(year: candidate, month: month, day: day, typed: typed), date >= today { return date }
        }
        throw ShellError.invalid("'\(SafeText.escape(typed))' is not a date: \(day) \(monthNames[month - 1]) does not exist")
    }

    static func notADate(_ text: String) -> ShellError {
        .invalid("'\(SafeText.escape(text))' is not a date: use today, tomorrow, 2026-12-01, 01.12.2026, 1 Dec or 1 Dec 2026")
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
