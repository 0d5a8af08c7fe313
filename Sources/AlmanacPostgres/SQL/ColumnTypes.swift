import AlmanacCore
import Synchronization

/// The expression language's type of each field of a table, as memory reads it: numbers,
/// booleans, dates for date and timestamp columns; for text (and JSON) the values decide —
/// (nearly) all numbers written as text are numbers, all ISO dates are dates — read from the
/// first rows once, in one statement, and remembered.
final class ColumnTypes: Sendable {
    let connection: PostgresConnection?
    let schema: TableSchema
    private let known = Mutex<[String: ValueType]>([:])
    private let containers = Mutex<[String: Bool]>([:])

    /// Rows read to decide a text or JSON field's type.
    static let sampleRows = 20_000

    init(connection: PostgresConnection?, schema: TableSchema) {
        self.connection = connection
        self.schema = schema
    }

    /// The field's type (a list's for arrays and JSON paths that reach several values).
    func type(of reference: FieldReference) -> ValueType {
        if let type = known.withLock({ $0[reference.field] }) { return type }
        let type = decide(reference)
        known.withLock { $0[reference.field] = type }
        return type
    }

    /// Whether the field is an object (or a list of objects) in JSON: then `is null` asks about
    /// it, not about the values inside it, as memory does.
    func isContainer(_ reference: FieldReference) -> Bool {
        guard reference.column.kind == .json, !reference.column.isArray, reference.hops.isEmpty, let connection else { return false }
        if let known = containers.withLock({ $0[reference.field] }) { return known }
        var sql = SQL("SELECT coalesce(bool_or(jsonb_typeof(v) = 'object' OR (jsonb_typeof(v) = 'array' AND jsonb_path_exists(v, ")
        sql.append("'$[*] ? (@.type() == \"object\")'))), false) FROM (SELECT t.\(reference.column.quoted)::jsonb #> ")
        sql.bind("{" + reference.path.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}", as: "text[]")
        sql.append(" AS v FROM (SELECT * FROM \(schema.quotedName) LIMIT \(Self.sampleRows)) AS t) AS s")
        let answer = (try? connection.query(sql, timeout: 5))?.value(0, 0) == "t"
        containers.withLock { $0[reference.field] = answer }
        return answer
    }

    private func decide(_ reference: FieldReference) -> ValueType {
        if let last = reference.hops.last {
            // Across links: the linked table's own column decides, sampled there (never a join
            // per sampled row), or memory's type for a dataset in memory; a link that leads to
            // several makes it a list.
            let own = FieldReference(field: reference.path.isEmpty ? reference.column.name : ([reference.column.name] + reference.path)
                .joined(separator: "."), column: reference.column, path: reference.path)
            let type = last.target.map { ColumnTypes(connection: connection, schema: $0).type(of: own) } ?? last.sent?.type.element ?? .text
            return reference.isMany && !type.isList ? .list(type) : type
        }
        let column = reference.column
        let list = reference.isMany
        func shaped(_ element: ValueType) -> ValueType { list ? .list(element) : element }
        switch column.kind {
        case .number: return shaped(.number)
        case .boolean: return shaped(.boolean)
        case .other: return shaped(QueryBuilder.isDate(column.typeName) ? .date : .text)
        case .text, .json: break
        }
        guard let connection else { return shaped(.text) }
        var aliases = Aliases()
        let source = reference.source(aliases: &aliases)
        let jsonType: SQL
        let text: SQL
        var from = SQL("(SELECT * FROM \(schema.quotedName) LIMIT \(Self.sampleRows)) AS t")
        switch source {
        case let .scalar(value, kind, _):
            jsonType = kind == .json ? SQL("jsonb_typeof(") + value + ")" : "'string'"
            text = kind == .json ? SQL("(") + value + " #>> '{}')" : value
        case let .set(set, _):
            jsonType = set.kind == .json ? SQL("jsonb_typeof(") + set.value + ")" : "'string'"
            text = set.kind == .json ? SQL("(") + set.value + " #>> '{}')" : set.value
            from.append(SQL(" CROSS JOIN LATERAL (SELECT ") + set.value + " AS value" + set.fromWhere(nil) + ") AS v")
        }
        let value: SQL
        if case let .set(set, _) = source { value = set.kind == .json ? SQL("(v.value #>> '{}')") : SQL("v.value") } else { value = text }
        let kind: SQL
        if case let .set(set, _) = source { kind = set.kind == .json ? SQL("jsonb_typeof(v.value)") : "'string'" } else { kind = jsonType }
        let present = QueryBuilder.present(value)
        // Galactic years (`19BBY`) are numbers, as NumericText reads them.
        let cleaned = SQL("replace(btrim(") + value + ", E' \\t'), ',', '')"
        let number = SQL("(") + cleaned + " ~ '" + QueryBuilder.numericPattern + "' OR " + cleaned + " ~* '" + QueryBuilder.galacticYearPattern + "')"
        let date = value + " ~ '" + Self.datePattern + "'"
        var sql = SQL("SELECT count(*) FILTER (WHERE ") + kind + " = 'number'), count(*) FILTER (WHERE " + kind + " IN ('boolean')), "
        sql.append(SQL("count(*) FILTER (WHERE ") + kind + " = 'string' AND " + present + " IS NOT NULL AND " + number + "), ")
        sql.append(SQL("count(*) FILTER (WHERE ") + kind + " = 'string' AND " + present + " IS NOT NULL AND NOT (" + number + ") AND " + date + "), ")
        sql.append(SQL("count(*) FILTER (WHERE ") + kind + " = 'string' AND " + present + " IS NOT NULL AND NOT (" + number + ") AND NOT (" + date + ")), ")
        sql.append("0 FROM ")
        sql.append(from)
        guard let result = try? connection.query(sql, timeout: 5), result.rowCount == 1 else { return shaped(.text) }
        let count = { (column: Int) in Int(result.value(0, column) ?? "0") ?? 0 }
        let (numbers, booleans, numericText, dates, others) = (count(0), count(1), count(2), count(3), count(4))
        // A JSON path that gives some row more than one value is a list.
        var isList = list
        if !list, case let .set(set, _) = source {
            let most = SQL("SELECT max((SELECT count(*)") + set.fromWhere(nil) + ")) FROM (SELECT * FROM \(schema.quotedName) LIMIT \(Self.sampleRows)) AS t"
            isList = (try? connection.query(most, timeout: 5)).flatMap { $0.value(0, 0) }.flatMap { Int($0) }.map { $0 > 1 } ?? false
        }
        let element: ValueType
        if numericText + dates + others == 0, booleans == 0, numbers > 0 {
            element = .number
        } else if numericText + dates + others == 0, numbers == 0, booleans > 0 {
            element = .boolean
        } else if TextReading.dominant(numbers: numbers + numericText, dates: dates, texts: others + booleans) == .date {
            // (Nearly) all dates: the rule memory's TextShape reads a field by.
            element = .date
        } else if numbers + numericText > 0, (others + booleans) * 4 <= numbers + numericText, dates == 0 {
            element = .number
        } else {
            element = .text
        }
        return isList ? .list(element) : element
    }

    /// ISO 8601 dates as `CalendarDate` reads them.
    /// An ISO 8601 date or time PostgreSQL can read, as `CalendarDate.seconds` reads one in
    /// memory: a day its month has (February 29th in leap years only), hours 00–23, minutes
    /// 00–59, seconds to 60. A text like `2024-02-30` is text, not a cast that fails the query.
    /// (Years 0001–9999 and offsets to ±15:59: PostgreSQL's range; memory reads more.)
    static let datePattern: String = {
        let year = "(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})"
        let leapYear = "([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)"
        let day = "(\(year)-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|\(year)-(0[13-9]|1[0-2])-(29|30)|\(year)-(0[13578]|1[02])-31|\(leapYear)-02-29)"
        let time = "([T ]([01][0-9]|2[0-3]):[0-5][0-9](:([0-5][0-9]|60)([.][0-9]+)?)?(Z|[+-](0[0-9]|1[0-5]):?[0-5][0-9])?)?"
        return "^" + day + time + "$"
    }()
}
