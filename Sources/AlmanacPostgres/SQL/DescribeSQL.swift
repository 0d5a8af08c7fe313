import AlmanacCore

/// `describe [FIELD…]` in SQL: counts, distinct values, number statistics, common values.
extension QueryBuilder {
    /// Counts, distinct values and, over numbers, min, max, mean and quartiles, for each field,
    /// in one pass: a row per field, in order. The fields at `dates` (text that is (nearly) all
    /// ISO dates, as the first pass counted) have their statistics over the dates. `only`:
    /// the positions to describe (the second pass reads only the dates).
    func describe(_ query: TableQuery, fields: [String], dates: Set<Int> = [], only: Set<Int>? = nil) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        let from = try source(query)
        var parts: [SQL] = []
        for (index, field) in fields.enumerated() where only?.contains(index) ?? true {
            let reference = try source(of: field, in: query, aliases: &aliases, reading: .whole)
            switch reference.source {
            case let .scalar(column, kind, typeName):
                parts.append(describeScalar(index: index, column: column, kind: kind, typeName: typeName, from: from, condition: condition,
                                            dates: dates.contains(index)))
            case let .set(set, _):
                parts.append(describeSet(index: index, set: set, from: from, condition: condition, dates: dates.contains(index)))
            }
        }
        return SQL.joined(parts, separator: " UNION ALL ") + " ORDER BY 1"
    }

    /// Columns: position, present, absent, distinct, min, max, mean, q1, median, q3, then how
    /// many values read as numbers and how many do not (text), whether every number is an
    /// integer (histogram's bins depend on it), how many are galactic years, and how many numbers
    /// a Double cannot hold (NaN, ±Infinity, 1e400: left out of the statistics, as memory leaves
    /// them), and how many texts are ISO dates. As in memory, the words for none are no value,
    /// and text that is (nearly) all numbers is described as numbers; `dates`: the statistics
    /// are the ISO dates' (seconds since 1970), as for a timestamp column.
    func describeScalar(index: Int, column: SQL, kind: TableSchema.ValueKind, typeName: String, from: SQL, condition: SQL?,
                        dates: Bool = false) -> SQL {
        let mayBeGalactic = kind == .text || kind == .json
        let date = Self.textDate(of: column, kind: kind)
        let number = dates ? date : Self.describedNumber(of: column, kind: kind, typeName: typeName)
        let present = kind == .number ? column : Self.present(Self.text(of: column, kind: kind))
        // Each row's value read once: OFFSET 0 keeps the planner from copying these expressions
        // into every aggregate below (a text column's patterns were matched ~15 times a row).
        var rows = SQL("SELECT ") + present + " AS p, " + number + " AS x"
        if mayBeGalactic { rows.append(SQL(", ") + Self.text(of: column, kind: kind) + " AS t, " + date + " AS d") }
        rows.append(SQL(" FROM ") + from + whereClause(condition) + " OFFSET 0")
        var sql = SQL("SELECT \(index), count(p)::text, (count(*) - count(p))::text, count(DISTINCT p)::text, ")
        sql.append(numberStatistics(SQL("x"), enabled: kind == .number || kind == .text || kind == .json || Self.isDate(typeName)))
        sql.append(", count(x)::text, (count(p) - count(x))::text, ")
        sql.append(Self.allIntegers("x"))
        sql.append(", ")
        sql.append(mayBeGalactic ? Self.galacticYears("t", number: "x") : "'0'")
        sql.append(SQL(", (count(x) - count(") + Self.finiteFloat8("x") + "))::text")
        sql.append(mayBeGalactic ? ", count(d)::text" : ", '0'")
        sql.append(SQL(" FROM (") + rows + ") AS described")
        return SQL("(") + sql + ")"
    }

    func describeSet(index: Int, set: ValueSet, from: SQL, condition: SQL?, dates: Bool = false) -> SQL {
        // Rows with at least one value; then statistics over all the values of all rows.
        let present = Self.text(of: set.value, kind: set.kind) + " IS NOT NULL"
        let rows = SQL("SELECT EXISTS (SELECT 1") + set.fromWhere(present) + ") AS has FROM " + from + whereClause(condition)
        let date = Self.textDate(of: set.value, kind: set.kind)
        let number = dates ? date : Self.describedNumber(of: set.value, kind: set.kind)
        let values = SQL("SELECT d.v, d.x, d.d FROM ") + from + " CROSS JOIN LATERAL (SELECT " + Self.text(of: set.value, kind: set.kind)
            + " AS v, " + number + " AS x, " + date + " AS d" + set.fromWhere(nil) + ") AS d" + whereClause(condition)
        var sql = SQL("SELECT \(index), r.present, r.absent, v.* FROM (SELECT count(*) FILTER (WHERE has)::text AS present, ")
        sql.append(SQL("count(*) FILTER (WHERE NOT has)::text AS absent FROM (") + rows + ") AS counted) AS r, (SELECT count(DISTINCT v)::text, ")
        sql.append(numberStatistics(SQL("x"), enabled: set.kind == .number || set.kind == .json))
        sql.append(", count(x)::text, (count(v) - count(x))::text, ")
        sql.append(Self.allIntegers("x"))
        sql.append(", ")
        sql.append(Self.galacticYears("v", number: "x"))
        sql.append(SQL(", (count(x) - count(") + Self.finiteFloat8("x") + "))::text, count(d)::text")
        sql.append(SQL(" FROM (") + values + ") AS valued) AS v")
        return SQL("(") + sql + ")"
    }

    /// A value as a number for describe: as `number(of:)`, a JSON string that reads as one
    /// (`"2"`), as memory reads it, and a date or timestamp as seconds since 1970 (UTC for
    /// one without a time zone, as memory reads an ISO date).
    static func describedNumber(of expression: SQL, kind: TableSchema.ValueKind, typeName: String = "") -> SQL {
        if isDate(typeName) { return SQL("extract(epoch from ") + expression + ")" }
        guard kind == .json else { return number(of: expression, kind: kind) }
        return SQL("CASE jsonb_typeof(") + expression + ") WHEN 'number' THEN (" + expression + ")::numeric WHEN 'string' THEN "
            + number(of: SQL("(") + expression + " #>> '{}')", kind: .text) + " END"
    }

    /// A text's (or a JSON string's) ISO date as seconds since 1970, as memory reads one; NULL
    /// for anything else.
    static func textDate(of value: SQL, kind: TableSchema.ValueKind) -> SQL {
        switch kind {
        case .text: ExpressionSQL.epoch(ofText: value)
        case .json: ExpressionSQL.epoch(ofText: SQL("CASE WHEN jsonb_typeof(") + value + ") = 'string' THEN " + value + " #>> '{}' END")
        case .number, .boolean, .other: "NULL::float8"
        }
    }

    /// Columns describe reads as dates: `date` and the timestamps (a time of day alone is not one).
    static func isDate(_ typeName: String) -> Bool { typeName == "date" || typeName.hasPrefix("timestamp") }
    /// A type a float8 holds as it is (integers past 2⁵³ round, as numeric's cast rounds them).
    static func isBinaryNumber(_ typeName: String) -> Bool {
        ["double precision", "real", "smallint", "integer", "bigint"].contains(typeName)
    }

    /// How many numbers are written as galactic years (`19BBY`): their statistics are shown so.
    static func galacticYears(_ text: SQL, number: SQL) -> SQL {
        SQL("count(*) FILTER (WHERE ") + text + " ~* '[0-9.] *[ab]by$' AND " + number + " IS NOT NULL)::text"
    }

    /// Whether every number is an integer below 10¹⁵ (`t`/`f`), as histogram decides it.
    static func allIntegers(_ number: SQL) -> SQL {
        let value = finiteFloat8(number)
        return SQL("bool_and(") + value + " = trunc(" + value + ") AND abs(" + value + ") < 1e15)::text"
    }

    /// How many of a field's numbers fall in each bin between consecutive `edges`, as
    /// histogram counts them (each bin holds its lower edge, the last its upper one too): rows
    /// of a bin's position from 1 and its count, bins without values left out.
    func distribution(_ query: TableQuery, field: String, edges: [Double], dates: Bool = false) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        let from = try source(query)
        let reference = try source(of: field, in: query, aliases: &aliases)
        let numbers: SQL
        switch reference.source {
        case let .scalar(column, kind, typeName):
            let number = dates ? Self.textDate(of: column, kind: kind) : Self.describedNumber(of: column, kind: kind, typeName: typeName)
            numbers = SQL("SELECT ") + Self.finiteFloat8(number) + " AS x FROM " + from + whereClause(condition)
        case let .set(set, _):
            let number = dates ? Self.textDate(of: set.value, kind: set.kind) : Self.describedNumber(of: set.value, kind: set.kind)
            numbers = SQL("SELECT ") + Self.finiteFloat8("d.x") + " AS x FROM " + from + " CROSS JOIN LATERAL (SELECT "
                + number + " AS x" + set.fromWhere(nil) + ") AS d" + whereClause(condition)
        }
        var sql = SQL("SELECT greatest(1, least(width_bucket(x, ")
        sql.bind("{" + edges.map { "\($0)" }.joined(separator: ",") + "}", as: "float8[]")
        sql.append(SQL("), \(edges.count - 1)))::text, count(*)::text FROM (") + numbers + ") AS numbers WHERE x IS NOT NULL GROUP BY 1")
        return sql
    }

    func numberStatistics(_ number: SQL, enabled: Bool) -> SQL {
        guard enabled else { return "NULL, NULL, NULL, NULL, NULL, NULL" }
        let value = Self.finiteFloat8(number)
        let exact = Self.finiteNumber(number)
        var sql = SQL("min(") + exact + ")::text, max(" + exact + ")::text, (" + Self.finiteMean(value) + ")::text"
        for fraction in ["0.25", "0.5", "0.75"] {
            sql.append(SQL(", ") + Self.finitePercentile(fraction, of: value) + "::text")
        }
        return sql
    }

    /// The most common values of a field, with their counts, most common first (ties by value).
    func commonValues(_ query: TableQuery, field: String, limit: Int) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        let from = try source(query)
        let reference = try source(of: field, in: query, aliases: &aliases, reading: .whole)
        var sql: SQL
        switch reference.source {
        case let .scalar(column, kind, _):
            let present = Self.present(Self.text(of: column, kind: kind))
            sql = SQL("SELECT ") + present + " AS v, count(*) AS n FROM " + from
            sql.append(whereClause(condition.map { $0 + " AND " + present + " IS NOT NULL" } ?? (present + " IS NOT NULL")))
        case let .set(set, _):
            sql = SQL("SELECT d.v, count(*) AS n FROM ") + from + " CROSS JOIN LATERAL (SELECT DISTINCT "
                + Self.text(of: set.value, kind: set.kind) + " AS v" + set.fromWhere(nil) + ") AS d"
            sql.append(whereClause(condition))
        }
        sql.append(" GROUP BY 1")
        var ordered = SQL("SELECT v, n FROM (") + sql + ") AS counted ORDER BY n DESC, v COLLATE \"C\" LIMIT "
        ordered.bind(String(limit), as: "bigint")
        return ordered
    }
}
