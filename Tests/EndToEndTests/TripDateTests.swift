import Foundation
import Testing

/// `trip … on DATE`: a field out of its range (month 13, day 0, year 0) is an error naming the
/// date, a day the month does not have likewise, a weekday is the next such day, a day and month
/// without a year mean the next such day that exists, a past date gets a note, and a trip
/// from a station to itself is an error.
@Suite("Trip dates")
struct TripDateTests {
    let home: TemporaryHome

    init() throws {
        home = try TemporaryHome()
    }

    func trip(_ date: String?, from: String = "9864", to: String = "9362") throws -> PipeResult {
        let command = "trip from \(from) to \(to)" + (date.map { " on \($0)" } ?? "")
        return try PipeRun.run(["--no-rc", "-c", "use stations", "-c", command], environment: home.environment(), directory: home.root)
    }

    /// What the trip's first line says for a date: `Trip on Friday 1 January 2027`.
    static func heading(year: Int, month: Int, day: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let date = calendar.date(from: DateComponents(era: 1, year: year, month: month, day: day))!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.calendar = calendar
        formatter.dateFormat = "EEEE d MMMM yyyy"
        return "Trip on " + formatter.string(from: date)
    }

    static var today: DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.dateComponents([.year, .month, .day], from: Date())
    }

    @Test("a field out of its range is refused, naming the date and the field, in every date form", arguments: [
        ("2026-13-01", "there is no month 13"), ("2026-00-10", "there is no month 0"), ("2026-25-03", "there is no month 25"),
        ("2026-01-00", "there is no day 0"), ("2026-01-32", "there is no day 32"), ("2026-13-32", "there is no month 13"),
        ("0000-01-01", "there is no year 0"), ("00.12.2026", "there is no day 0"), ("01.00.2026", "there is no month 0"),
        ("01.13.2026", "there is no month 13"), ("01.12.0000", "there is no year 0"), ("0 Dec 2026", "there is no day 0"),
        ("32 Dec 2026", "there is no day 32"), ("Dec 0", "there is no day 0"), ("1 Dec 0", "there is no year 0"),
        ("00.12", "there is no day 0"),
    ])
    func outOfRangeFieldsAreRefused(_ typed: String, _ reason: String) throws {
        let result = try trip(typed)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("-c:2:27: '\(typed)' is not a date: \(reason)"), "\(result)")
    }

    @Test("a date in range is that day in every form", arguments: [
        ("2026-12-01", 2026, 12, 1), ("0001-01-01", 1, 1, 1), ("1 Dec 2026", 2026, 12, 1), ("Dec 1 2026", 2026, 12, 1), ("9999-12-31", 9999, 12, 31),
    ])
    func datesInRange(_ typed: String, _ year: Int, _ month: Int, _ day: Int) throws {
        let result = try trip(typed)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.lines.first == Self.heading(year: year, month: month, day: day), "\(result)")
    }

    @Test("a day the month does not have is an error naming the date", arguments: [
        ("2026-02-30", "30 February 2026"), ("2025-02-29", "29 February 2025"), ("2026-04-31", "31 April 2026"), ("31 Apr 2026", "31 April 2026"),
    ])
    func missingDayIsAnError(_ typed: String, _ named: String) throws {
        let result = try trip(typed)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("\(named) does not exist"), "\(result)")
    }

    /// The date `weeks` weeks after the first `weekday` (1 = Sunday) after today.
    static func nextWeekday(_ weekday: Int, weeksLater: Int = 0) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let today = calendar.startOfDay(for: Date())
        var days = (weekday - calendar.component(.weekday, from: today) + 7) % 7
        if days == 0 { days = 7 }
        let date = calendar.date(byAdding: .day, value: days + 7 * weeksLater, to: today)!
        return calendar.dateComponents([.year, .month, .day], from: date)
    }

    /// Runs `trip` and returns the headings `expected` gives just before and just after it: a
    /// run that crosses midnight answers for either day.
    static func aroundTheRun(_ trip: () throws -> PipeResult, expected: () -> DateComponents) throws -> (PipeResult, Set<String>) {
        let before = expected()
        let result = try trip()
        let after = expected()
        return (result, Set([before, after].map { heading(year: $0.year!, month: $0.month!, day: $0.day!) }))
    }

    @Test("a weekday is the first such day after today (a week ahead on that day); next WEEKDAY the one after", arguments: [
        ("friday", 6, 0), ("fri", 6, 0), ("Friday", 6, 0), ("пятница", 6, 0), ("пятницу", 6, 0), ("пт", 6, 0),
        ("next friday", 6, 1), ("next fri", 6, 1), ("monday", 2, 0), ("sun", 1, 0), ("воскресенье", 1, 0), ("next среда", 4, 1),
        ("thursday", 5, 0), ("tue", 3, 0), ("sat", 7, 0),
    ])
    func weekdays(_ typed: String, _ weekday: Int, _ weeksLater: Int) throws {
        let (result, expected) = try Self.aroundTheRun({ try trip(typed) }) { Self.nextWeekday(weekday, weeksLater: weeksLater) }
        #expect(result.status == 0, "\(result)")
        #expect(expected.contains(result.stdout.lines.first ?? ""), "\(result)")
        #expect(!result.stdout.contains("Note"), "\(result)")
    }

    @Test("help trip says what a weekday means")
    func helpSaysWhatAWeekdayMeans() throws {
        let result = try PipeRun.run(["--no-rc", "-c", "help trip"], environment: home.environment(), directory: home.root)
        let text = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("A weekday (friday, fri, пятница) is the first such day after today: on a Friday, friday is a week ahead; next friday is the one after that."), "\(result)")
        #expect(!text.contains("rolls"), "\(result)")
    }

    @Test("29 Feb without a year is the next 29 February that exists; likewise any day and month")
    func dayMonthIsTheNextThatExists() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        func next(month: Int, day: Int) -> DateComponents {
            let today = Self.today
            var year = today.year!
            while true {
                let components = DateComponents(year: year, month: month, day: day)
                if let date = calendar.date(from: components), calendar.component(.day, from: date) == day,
                   (month, day) >= (today.month!, today.day!) || year > today.year! {
                    return DateComponents(year: year, month: month, day: day)
                }
                year += 1
            }
        }
        let (leap, leapYears) = try Self.aroundTheRun({ try trip("29 Feb") }) { next(month: 2, day: 29) }
        #expect(leapYears.contains(leap.stdout.lines.first ?? ""), "\(leap)")
        let (december, decembers) = try Self.aroundTheRun({ try trip("1 Dec") }) { next(month: 12, day: 1) }
        #expect(decembers.contains(december.stdout.lines.first ?? ""), "\(december)")
        let never = try trip("31 Apr")
        #expect(never.status == 1 && never.stderr.contains("31 April does not exist"), "\(never)")
    }

    @Test("day.month.year, as Russian users write a date, is that day", arguments: [
        ("01.12.2026", 2026, 12, 1), ("1.12.2026", 2026, 12, 1), ("29.02.2028", 2028, 2, 29), ("31.12.2099", 2099, 12, 31),
    ])
    func dottedDates(_ typed: String, _ year: Int, _ month: Int, _ day: Int) throws {
        let result = try trip(typed)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.lines.first == Self.heading(year: year, month: month, day: day), "\(result)")
        #expect(try trip(String(format: "%04d-%02d-%02d", year, month, day)).stdout == result.stdout, "the same trip as the ISO date")
    }

    @Test("a dotted date that does not exist is an error naming it", arguments: [
        ("32.01.2026", "there is no day 32"), ("29.02.2026", "29 February 2026 does not exist"),
        ("01.13.2026", "there is no month 13"), ("01.12.26", "write the year in full"),
    ])
    func dottedDateErrors(_ typed: String, _ message: String) throws {
        let result = try trip(typed)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("'\(typed)' is not a date: \(message)"), "\(result)")
    }

    @Test("a past date is answered, with a note")
    func pastDateHasANote() throws {
        let result = try trip("2020-01-01")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.lines.first == Self.heading(year: 2020, month: 1, day: 1), "\(result)")
        #expect(result.stdout.contains("Note     1 January 2020 is in the past"), "\(result)")
        let today = try trip(nil)
        #expect(!today.stdout.contains("Note"), "\(today)")
    }

    @Test("a trip from a station to itself is an error")
    func sameStationIsAnError() throws {
        let title = try #require(DatasetCompletionTests.stations[9864]?.title)
        let result = try trip(nil, from: "9864", to: "9864")
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("\(title) [9864] is both the departure and the arrival"), "\(result)")
    }
}
