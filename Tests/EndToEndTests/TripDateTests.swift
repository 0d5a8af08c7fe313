import Foundation
import Testing

/// `trip … on DATE`: months out of range roll over into the next or previous year, the year 0
/// reads as 1, a day the month does not have is an error naming the date, a day and month
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

    @Test("months out of range roll over; the year 0 reads as 1", arguments: [
        ("2026-13-01", 2027, 1, 1), ("2026-00-10", 2025, 12, 10), ("0000-01-01", 1, 1, 1), ("2026-25-03", 2028, 1, 3),
    ])
    func monthsRollOver(_ typed: String, _ year: Int, _ month: Int, _ day: Int) throws {
        let result = try trip(typed)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.lines.first == Self.heading(year: year, month: month, day: day), "\(result)")
    }

    @Test("a day the month does not have is an error naming the date", arguments: [
        ("2026-02-30", "30 February 2026"), ("2025-02-29", "29 February 2025"), ("2026-04-31", "31 April 2026"), ("2026-13-32", "32 January 2027"),
    ])
    func missingDayIsAnError(_ typed: String, _ named: String) throws {
        let result = try trip(typed)
        #expect(result.status == 1 && result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("\(named) does not exist"), "\(result)")
    }

    @Test("29 Feb without a year is the next 29 February that exists; likewise any day and month")
    func dayMonthIsTheNextThatExists() throws {
        let today = Self.today
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        func next(month: Int, day: Int) -> Int {
            var year = today.year!
            while true {
                let components = DateComponents(year: year, month: month, day: day)
                if let date = calendar.date(from: components), calendar.component(.day, from: date) == day,
                   (month, day) >= (today.month!, today.day!) || year > today.year! {
                    return year
                }
                year += 1
            }
        }
        let leap = try trip("29 Feb")
        #expect(leap.stdout.lines.first == Self.heading(year: next(month: 2, day: 29), month: 2, day: 29), "\(leap)")
        let december = try trip("1 Dec")
        #expect(december.stdout.lines.first == Self.heading(year: next(month: 12, day: 1), month: 12, day: 1), "\(december)")
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
        ("32.01.2026", "32 January 2026 does not exist"), ("29.02.2026", "29 February 2026 does not exist"),
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
