import Foundation

/// One function of the expression language, declared once: its arguments' and result's
/// types, what it computes in memory (on one value; the evaluator runs it over a column) and
/// the SQL a database computes it with (`{0}`, `{1}`: the arguments; `{*}`: all of them).
/// Adding a function is adding one declaration to `all`.
public struct ExpressionFunction: Sendable {
    public enum Implementation: Sendable {
        case number(@Sendable (Double) -> Double)
        case numbers2(@Sendable (Double, Double) -> Double)
        /// Any count of numbers (`distance(lat1, lon1, lat2, lon2)`).
        case numbers(@Sendable ([Double]) -> Double)
        case text(@Sendable (String) -> String?)
        case textToNumber(@Sendable (String) -> Double)
        /// Text and numbers (`substr(x, from, count)`): numbers absent are NaN.
        case textAndNumbers(@Sendable (String, [Double]) -> String?)
        case texts(@Sendable ([String]) -> String?)
        case dateToNumber(@Sendable (Double) -> Double)
        /// The evaluator's own (coalesce, count, today).
        case special
    }

    public let name: String
    /// The types of the arguments; those from `required` on may be left out.
    public let parameters: [ValueType]
    public let required: Int
    /// The last parameter repeats (`coalesce(a, b, …)`).
    public let variadic: Bool
    /// nil: the type of the first argument (coalesce).
    public let result: ValueType?
    public let implementation: Implementation
    /// The SQL, per count of arguments given when it differs (`round(x)`, `round(x, d)`).
    public let sql: [Int: String]
    /// `round(x[, digits])`: for help and completion.
    public let usage: String
    public let summary: String

    public init(_ name: String, _ parameters: [ValueType], required: Int? = nil, variadic: Bool = false, result: ValueType?,
                _ implementation: Implementation, sql: [Int: String], usage: String, summary: String) {
        self.name = name
        self.parameters = parameters
        self.required = required ?? parameters.count
        self.variadic = variadic
        self.result = result
        self.implementation = implementation
        self.sql = sql
        self.usage = usage
        self.summary = summary
    }

    /// Convenience for one SQL whatever the count of arguments.
    public init(_ name: String, _ parameters: [ValueType], required: Int? = nil, variadic: Bool = false, result: ValueType?,
                _ implementation: Implementation, sql: String, usage: String, summary: String) {
        self.init(name, parameters, required: required, variadic: variadic, result: result, implementation, sql: [-1: sql],
                  usage: usage, summary: summary)
    }

    /// The SQL template for `count` arguments.
    public func sqlTemplate(arguments count: Int) -> String? { sql[count] ?? sql[-1] }

    public static func named(_ name: String) -> ExpressionFunction? { byName[name.lowercased()] }

    public static var names: [String] { all.map(\.name) }

    private static let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// A number taken from a date (year, month, day, weekday) is a part of the calendar, not a
    /// quantity: people read it as digits (`2024`, never `2,024`), as a field named `year` reads.
    public var isCalendarPart: Bool {
        if case .dateToNumber = implementation { return true }
        return false
    }

    /// Finite or absent: infinities and NaN from any operation read as no value.
    @inline(__always)
    static func finite(_ value: Double) -> Double { value.isFinite ? value : .nan }

    public static let all: [ExpressionFunction] = [
        ExpressionFunction("abs", [.number], result: .number, .number { Swift.abs($0) }, sql: "abs({0})",
                           usage: "abs(x)", summary: "the number without its sign"),
        ExpressionFunction("round", [.number, .number], required: 1, result: .number, .numbers(Self.round),
                           sql: [1: "round(({0})::numeric)::float8",
                                 2: "CASE WHEN {1} >= \(roundsNothing) THEN {0} "
                                     + "ELSE round(({0})::numeric, greatest({1}, -\(roundsNothing))::int)::float8 END"],
                           usage: "round(x[, digits])", summary: "rounded half away from zero, to digits after the point"),
        ExpressionFunction("floor", [.number], result: .number, .number { $0.rounded(.down) }, sql: "floor({0})",
                           usage: "floor(x)", summary: "the largest whole number not above x"),
        ExpressionFunction("ceil", [.number], result: .number, .number { $0.rounded(.up) }, sql: "ceil({0})",
                           usage: "ceil(x)", summary: "the smallest whole number not below x"),
        ExpressionFunction("sqrt", [.number], result: .number, .number { $0 >= 0 ? $0.squareRoot() : .nan },
                           sql: "CASE WHEN {0} >= 0 THEN sqrt({0}) END", usage: "sqrt(x)", summary: "the square root (none below 0)"),
        ExpressionFunction("ln", [.number], result: .number, .number { $0 > 0 ? Foundation.log($0) : .nan },
                           sql: "CASE WHEN {0} > 0 THEN ln({0}) END", usage: "ln(x)", summary: "the natural logarithm (none at or below 0)"),
        ExpressionFunction("log10", [.number], result: .number, .number { $0 > 0 ? Foundation.log10($0) : .nan },
                           sql: "CASE WHEN {0} > 0 THEN log({0}) END", usage: "log10(x)", summary: "the logarithm to base 10 (none at or below 0)"),
        ExpressionFunction("power", [.number, .number], result: .number, .numbers2(Self.power),
                           sql: "CASE WHEN ({0} < 0 AND {1} <> trunc({1})) OR ({0} = 0 AND {1} < 0) OR abs({1} * ln(NULLIF(abs({0}), 0))) > 700 THEN NULL ELSE power({0}, {1}) END",
                           usage: "power(x, y)", summary: "x to the power y"),
        ExpressionFunction("length", [.text], result: .number, .textToNumber { Double($0.unicodeScalars.count) },
                           sql: "char_length({0})::float8", usage: "length(text)", summary: "how many characters"),
        ExpressionFunction("lower", [.text], result: .text, .text { SimpleCaseMapping.lowercased($0) }, sql: "lower({0})",
                           usage: "lower(text)", summary: "in lower case"),
        ExpressionFunction("upper", [.text], result: .text, .text { SimpleCaseMapping.uppercased($0) }, sql: "upper({0})",
                           usage: "upper(text)", summary: "in upper case"),
        ExpressionFunction("trim", [.text], result: .text, .text { $0.trimmingCharacters(in: Self.trimmed) },
                           sql: "btrim({0}, E' \\t\\r\\n')", usage: "trim(text)", summary: "without spaces at either end"),
        ExpressionFunction("substr", [.text, .number, .number], required: 2, result: .text, .textAndNumbers(Self.substring),
                           sql: [2: "substr({0}, ({1})::int)", 3: "CASE WHEN {2} >= 0 THEN substr({0}, ({1})::int, ({2})::int) END"],
                           usage: "substr(text, from[, count])", summary: "characters from position from (1 is the first)"),
        ExpressionFunction("replace", [.text, .text, .text], result: .text, .texts(Self.replace), sql: "replace({0}, {1}, {2})",
                           usage: "replace(text, old, new)", summary: "every old replaced by new"),
        ExpressionFunction("coalesce", [.null, .null], variadic: true, result: nil, .special, sql: "coalesce({*})",
                           usage: "coalesce(a, b, …)", summary: "the first value that is present"),
        ExpressionFunction("count", [.list(.null)], result: .number, .special, sql: "",
                           usage: "count(list)", summary: "how many values a list has (0 for none)"),
        ExpressionFunction("year", [.date], result: .number, .dateToNumber { Double(CalendarDate.parts($0).year) },
                           sql: "extract(year from to_timestamp({0}) AT TIME ZONE 'UTC')::float8", usage: "year(date)", summary: "the year"),
        ExpressionFunction("month", [.date], result: .number, .dateToNumber { Double(CalendarDate.parts($0).month) },
                           sql: "extract(month from to_timestamp({0}) AT TIME ZONE 'UTC')::float8", usage: "month(date)", summary: "the month, 1 to 12"),
        ExpressionFunction("day", [.date], result: .number, .dateToNumber { Double(CalendarDate.parts($0).day) },
                           sql: "extract(day from to_timestamp({0}) AT TIME ZONE 'UTC')::float8", usage: "day(date)", summary: "the day of the month"),
        ExpressionFunction("weekday", [.date], result: .number, .dateToNumber { CalendarDate.weekday($0) },
                           sql: "extract(isodow from to_timestamp({0}) AT TIME ZONE 'UTC')::float8", usage: "weekday(date)",
                           summary: "the day of the week, 1 (Monday) to 7 (Sunday)"),
        ExpressionFunction("today", [], result: .date, .special, sql: "(extract(epoch from current_date)::float8)",
                           usage: "today()", summary: "today's date (UTC)"),
    ]

    static let trimmed = CharacterSet(charactersIn: " \t\r\n")

    /// Digits past which round changes nothing (a double's shortest form has at most 341
    /// decimals) or leaves 0 (a double is under 10³⁰⁹): round(area, 1e10) is area, in memory
    /// and in a database (whose int cannot hold 1e10).
    static let roundsNothing = 400

    /// Half away from zero, at `digits` decimals, on the number's shortest decimal form (as a
    /// database's numeric rounds it: round(2.675, 2) is 2.68).
    static func round(_ arguments: [Double]) -> Double {
        let value = arguments[0]
        guard arguments.count > 1 else { return value.rounded() }
        let digits = arguments[1]
        guard !digits.isNaN, value.isFinite else { return .nan }
        // Past Decimal's reach the answer is plain, as the database's numeric gives it: a
        // double has no digit 300 places after the point to round (round(x, 309) is x), and
        // rounding to 10³⁰⁰ leaves nothing of a smaller number (round(x, -400) is 0).
        if digits > 300, abs(value) >= 1e-280 || value == 0 || digits >= Double(roundsNothing) { return value }
        if digits < -300, abs(value) < 1e280 || digits <= -Double(roundsNothing) { return 0 }
        guard abs(digits) <= 300 else { return .nan }
        // Less than half a unit of the last place is 0 (as numeric's round says), also for a
        // number too small for Decimal (round(1e-320, 1)).
        if abs(value) < 0.5 * Foundation.pow(10, -digits.rounded()) { return 0 }
        var decimal = Decimal(string: "\(value)") ?? Decimal(value)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &decimal, Int(digits.rounded()), .plain)
        return NSDecimalNumber(decimal: rounded).doubleValue
    }

    static func power(_ base: Double, _ exponent: Double) -> Double {
        if base < 0, exponent != exponent.rounded() { return .nan }
        if base == 0, exponent < 0 { return .nan }
        return Foundation.pow(base, exponent)
    }

    /// SQL's substr: positions from 1, by code point; a start before 1 shortens the count.
    static func substring(_ text: String, _ numbers: [Double]) -> String? {
        guard let from = numbers.first, !from.isNaN else { return nil }
        let scalars = Array(text.unicodeScalars)
        let start = Int(from.rounded())
        var end = scalars.count + 1
        if numbers.count > 1 {
            guard !numbers[1].isNaN, numbers[1] >= 0 else { return nil }
            end = min(end, start + Int(numbers[1].rounded()))
        }
        let lower = max(1, start)
        guard end > lower else { return "" }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[(lower - 1)..<(end - 1)])
        return String(result)
    }

    static func replace(_ texts: [String]) -> String? {
        guard texts.count == 3 else { return nil }
        return texts[1].isEmpty ? texts[0] : texts[0].replacingOccurrences(of: texts[1], with: texts[2])
    }
}

/// The aggregates of `group … AGG(EXPR)`.
extension Aggregate.Function {
    public var usage: String {
        switch self {
        case .count: "count(x): records with a value"
        case .sum: "sum(x)"
        case .avg: "avg(x): the mean"
        case .min: "min(x)"
        case .max: "max(x)"
        case .distinct: "distinct(x): how many different values"
        }
    }
}

extension CalendarDate {
    /// Year, month and day (UTC) of seconds since 1970.
    static func parts(_ seconds: Double) -> (year: Int, month: Int, day: Int) {
        date(days: Int((seconds / secondsPerDay).rounded(.down)))
    }

    /// ISO weekday: 1 Monday … 7 Sunday (1970-01-01 was a Thursday).
    static func weekday(_ seconds: Double) -> Double {
        let days = Int((seconds / secondsPerDay).rounded(.down))
        return Double(((days + 3) % 7 + 7) % 7 + 1)
    }
}
