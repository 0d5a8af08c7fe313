import AlmanacCore
import Foundation

/// How one result value reads: for people (tables; source values by `ValueText`, the one rule
/// for how a field's value reads), in a delimited cell, and in JSON.
enum ResultText {
    /// A column's value for people: absent values (and the words that mean none) as the
    /// column's absent text, numbers grouped in thousands unless the column holds years or ids.
    static func people(_ value: ResultValue, in column: ResultColumn) -> String {
        let grouped = column.grouped && ValueText.groupsThousands(column.name)
        switch value {
        case .absent: return column.absentText
        case let .text(text): return column.kind == .field && !column.isName && ValueText.isAbsent(text) ? column.absentText : text
        case let .literal(literal): return grouped ? ValueText.number(literal, field: column.name) : literal
        case let .integer(number): return grouped ? number.grouped : String(number)
        case let .decimal(number): return grouped ? NumberFormat.grouped(number) : NumberFormat.plain(number)
        case let .boolean(flag): return flag ? "yes" : "no"
        case let .date(date): return day(date)
        case let .list(values): return values.map { people($0, in: column) }.filter { !$0.isEmpty && $0 != column.absentText }.joined(separator: ", ")
        case let .record(members): return members.map { people($0.value, in: ResultColumn($0.name, .text)) }.joined(separator: " ")
        case let .link(link): return link.name
        case let .source(source):
            if column.isName, source.kind == .string { return source.document.string(at: source.index) }
            // A nested object in a listing reads as what names it (`octocat`), as group counts it.
            if source.kind == .object, column.kind == .field {
                return ObjectIdentity.text(of: source.index, in: source.document) ?? column.absentText
            }
            return ValueText.text(of: source, field: column.name) ?? column.absentText
        }
    }

    /// For a CSV or TSV cell: numbers as written, lists and objects as compact JSON.
    static func plain(_ value: ResultValue) -> String {
        switch value {
        case .absent: return ""
        case let .text(text): return text
        case let .integer(number): return String(number)
        case let .decimal(number): return NumberFormat.plain(number)
        case let .literal(literal): return literal
        case let .boolean(flag): return flag ? "true" : "false"
        case let .date(date): return day(date)
        case .list, .record:
            var writer = JSONWriter()
            write(value, to: &writer)
            return String(decoding: writer.bytes, as: UTF8.self)
        case let .link(link): return link.name
        case let .source(source):
            switch source.kind {
            case .string, .number: return source.document.string(at: source.index)
            case .true: return "true"
            case .false: return "false"
            case .null: return ""
            case .array, .object: return JSONWriter.string(source)
            }
        }
    }

    /// As a JSON value: text as strings, numbers as numbers, nothing as null, source values as written.
    static func write(_ value: ResultValue, to writer: inout JSONWriter, indent: Int = 0) {
        switch value {
        case .absent: writer.append("null")
        case let .text(text): writer.writeString(text)
        case let .integer(number): writer.append(String(number))
        case let .decimal(number): writer.append(number.isFinite ? NumberFormat.plain(number) : "null")
        case let .literal(literal): writer.append(literal)
        case let .boolean(flag): writer.append(flag ? "true" : "false")
        case let .date(date): writer.writeString(day(date))
        case let .list(values):
            writer.append("[")
            for (index, element) in values.enumerated() {
                if index > 0 { writer.append(",") }
                write(element, to: &writer)
            }
            writer.append("]")
        case let .record(members):
            writer.append("{")
            for (index, member) in members.enumerated() {
                if index > 0 { writer.append(",") }
                writer.writeString(member.name)
                writer.append(":")
                write(member.value, to: &writer)
            }
            writer.append("}")
        case let .link(link): writer.writeString(link.name)
        case let .source(source): writer.write(source.document, source.index, indent: indent)
        }
    }

    /// `2026-12-01`, or `2014-12-20T21:53:16.481Z` when it has a time of day (`created + 0.5`).
    static func day(_ date: Date) -> String {
        // The proleptic Gregorian calendar in UTC (dates are seconds since 1970 UTC), years
        // before 1 with their era as PostgreSQL writes them (`0044-03-15 BC`).
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { return seconds > 0 ? "infinity" : seconds < 0 ? "-infinity" : "NaN" }
        // A computed date keeps its time: writing the day alone would move it to midnight.
        if seconds >= firstYearStart, seconds < 1e15, seconds.truncatingRemainder(dividingBy: CalendarDate.secondsPerDay) != 0 {
            return CalendarDate.iso8601(seconds)
        }
        let (year, month, day) = CalendarDate.date(days: Int(max(-1e15, min(1e15, (seconds / CalendarDate.secondsPerDay).rounded(.down)))))
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
        func four(_ number: Int) -> String { String(repeating: "0", count: max(0, 4 - String(number).count)) + String(number) }
        return year >= 1 ? "\(four(year))-\(two(month))-\(two(day))" : "\(four(1 - year))-\(two(month))-\(two(day)) BC"
    }

    /// 0001-01-01T00:00:00Z in seconds since 1970: before it a date is written with its era.
    static let firstYearStart = Double(CalendarDate.days(year: 1, month: 1, day: 1)) * CalendarDate.secondsPerDay

    /// Whether a value is a number (for right alignment).
    static func isNumber(_ value: ResultValue) -> Bool {
        switch value {
        case .integer, .decimal, .literal: true
        case let .source(source): source.kind == .number
        default: false
        }
    }
}
