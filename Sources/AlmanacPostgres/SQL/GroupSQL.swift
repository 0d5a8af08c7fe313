import AlmanacCore

/// `group FIELD, … [AGG FIELD, …]` in SQL.
extension QueryBuilder {
    /// Rows per combination of the fields' values, largest first, ties by value; each value
    /// of a list counts (once per row); a row without a value — null, missing, or one of the
    /// words for none (`ValueText.isAbsent`) — groups under "". Each value comes with whether
    /// it is a number, then the count, each group's share of all rows in percent, and the
    /// aggregates asked for.
    func group(_ query: TableQuery, spec: GroupSpec, limit: Int?) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        var joins = SQL()
        var values: [(text: SQL, isNumber: SQL)] = []
        for field in spec.fields {
            let reference = try source(of: field, in: query, aliases: &aliases, reading: .whole)
            switch reference.source {
            case let .scalar(expression, kind, _):
                values.append((Self.groupText(of: expression, kind: kind), kind == .number ? SQL("(") + expression + " IS NOT NULL)" : "false"))
            case let .set(set, _):
                let group = aliases.next("g")
                let isNumber = set.kind == .json ? SQL("jsonb_typeof(") + set.value + ") = 'number'" : SQL(set.kind == .number ? "true" : "false")
                joins.append(SQL(" LEFT JOIN LATERAL (SELECT DISTINCT ") + Self.groupText(of: set.value, kind: set.kind) + " AS v, "
                             + isNumber + " AS number" + set.fromWhere(nil) + ") AS \(group) ON true")
                values.append((SQL("\(group).v"), SQL("coalesce(\(group).number AND \(group).v IS NOT NULL, false)")))
            }
        }
        var aggregates: [SQL] = []
        for aggregate in spec.aggregates {
            aggregates.append(try self.aggregate(aggregate, in: query, joins: &joins, aliases: &aliases))
        }
        var columns: [SQL] = []
        for (index, value) in values.enumerated() {
            columns.append(SQL("coalesce(") + value.text + ", '') AS v\(index)")
            columns.append(value.isNumber + " AS number\(index)")
        }
        columns.append("count(*) AS n")
        columns += aggregates.enumerated().map { SQL("") + $1 + " AS a\($0)" }
        let from = try source(query)
        var inner = SQL("SELECT ") + SQL.joined(columns, separator: ", ") + " FROM " + from
        inner.append(joins)
        inner.append(whereClause(condition))
        inner.append(" GROUP BY " + (1...values.count * 2).map(String.init).joined(separator: ", "))

        var totalAliases = aliases
        let total = SQL("(SELECT count(*) FROM ") + from + whereClause(try self.condition(query, aliases: &totalAliases)) + ")"
        var outer: [SQL] = []
        for index in values.indices { outer += [SQL("v\(index)"), SQL("number\(index)::text")] }
        outer.append("n")
        outer.append(SQL("(n * 100.0 / NULLIF(") + total + ", 0))::float8::text")
        outer += (0..<aggregates.count).map { SQL("a\($0)") }
        // Counted before the LIMIT: "N more groups".
        if limit != nil { outer.append("(count(*) OVER ())::text") }
        var sql = SQL("SELECT ") + SQL.joined(outer, separator: ", ") + " FROM (" + inner + ") AS grouped ORDER BY n DESC"
        // Equal counts by value, as in memory: numbers (numerically), then text folded and by
        // code point, none last.
        for index in values.indices {
            sql.append(", v\(index) = '' ASC, number\(index) DESC, CASE WHEN number\(index) THEN v\(index)::numeric END ASC, ")
            sql.append(folding.fold(SQL("v\(index)")) + " COLLATE \"C\", v\(index) COLLATE \"C\"")
        }
        if let limit {
            sql.append(" LIMIT ")
            sql.bind(String(limit), as: "bigint")
        }
        return sql
    }

    /// A value's text for grouping: numbers as written, the words for none as no value.
    static func groupText(of expression: SQL, kind: TableSchema.ValueKind) -> SQL {
        switch kind {
        case .number: return SQL("(") + expression + ")::text"
        case .text, .other: return present(text(of: expression, kind: kind))
        case .boolean: return text(of: expression, kind: kind)
        case .json:
            return SQL("CASE jsonb_typeof(") + expression + ") WHEN 'null' THEN NULL WHEN 'string' THEN "
                + present(SQL("(") + expression + " #>> '{}')") + " WHEN 'object' THEN " + objectText(of: expression)
                + " ELSE " + expression + " #>> '{}' END"
        }
    }

    /// A JSON value with an object as one value, as in memory (`ObjectIdentity`): the first
    /// of its `title`, `name`, `login`, `id` that is a present string or a number; else its
    /// JSON text as a string; an empty object is null. Other values as they are.
    /// `unnamed`: what an object nothing names is instead (a comparison walks its members).
    static func named(_ value: SQL, unnamed: SQL? = nil) -> SQL {
        var sql = SQL("CASE WHEN jsonb_typeof(") + value + ") <> 'object' THEN " + value
        for member in ObjectIdentity.members {
            let inner = SQL("(") + value + " -> '\(member)')"
            sql.append(SQL(" WHEN jsonb_typeof(") + inner + ") = 'number' OR (jsonb_typeof(" + inner + ") = 'string' AND "
                       + present(inner + " #>> '{}'") + " IS NOT NULL) THEN " + inner)
        }
        if let unnamed { return sql + " ELSE " + unnamed + " END" }
        return sql + " WHEN " + value + " = '{}'::jsonb THEN 'null'::jsonb ELSE to_jsonb(" + value + "::text) END"
    }

    /// An object's name as text (see `named`).
    static func objectText(of object: SQL) -> SQL { SQL("(") + named(object) + " #>> '{}')" }

    /// NULL for "", `n/a`, `unknown`, `none` and the other words for no value (`ValueText.isAbsent`).
    static func present(_ text: SQL) -> SQL {
        SQL("CASE WHEN octet_length(") + text + ") <= 12 AND lower(btrim(" + text + ")) IN (" + absentWords + ") THEN NULL ELSE "
            + text + " END"
    }

    /// `'', 'n/a', …`: almanac's own constants, as SQL literals.
    static let absentWords = ValueText.absentWords.sorted().map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
        .joined(separator: ", ")

    /// `sum population`: over numbers (text that reads as a number counts); `min`/`max` of
    /// numbers, or of text when the field is text; `distinct`: how many different values.
    func aggregate(_ aggregate: Aggregate, in query: TableQuery, joins: inout SQL, aliases: inout Aliases) throws -> SQL {
        let reference = try source(of: aggregate.field, in: query, aliases: &aliases, reading: .whole)
        let expression: SQL
        let kind: TableSchema.ValueKind
        var typeName = ""
        switch reference.source {
        case let .scalar(column, columnKind, columnType):
            expression = column
            kind = columnKind
            typeName = columnType
        case let .set(values, _):
            // A list's or a path's first value, as sort takes it.
            expression = values.firstValue(joins: &joins, aliases: &aliases)
            kind = values.kind
        }
        // Doubles stay doubles (numeric keeps only 15 of their digits).
        let number = typeName == "double precision" ? expression : Self.number(of: expression, kind: kind)
        // As in memory: values that are absent (null, "", the words for none) do not count;
        // sums and means are of doubles, added in the table's order.
        let present = kind == .number ? expression : Self.present(Self.text(of: expression, kind: kind))
        switch aggregate.function {
        case .count:
            return SQL("count(") + present + ")::text"
        case .distinct:
            return SQL("count(DISTINCT ") + (kind == .number ? Self.text(of: expression, kind: kind) : present) + ")::text"
        case .sum:
            return Self.finiteSumText(Self.finiteFloat8(number))
        case .avg:
            let mean = SQL("(") + Self.finiteMean(Self.finiteFloat8(number)) + ")"
            guard kind == .text || kind == .json else { return mean + "::text" }
            return Self.galacticYearOr(mean + "::text", of: Self.text(of: expression, kind: kind), number: number, value: mean)
        case .min, .max:
            let function = aggregate.function.rawValue
            if kind == .number { return Self.numberText(SQL("\(function)(") + number + ")") }
            // The numbers among the values when there are any, else the text, ordered as sort orders it.
            let direction = aggregate.function == .min ? " ASC" : " DESC"
            let text = SQL("(array_agg(") + present + " ORDER BY " + folding.fold(present) + " COLLATE \"C\"" + direction + ", " + present
                + " COLLATE \"C\"" + direction + ") FILTER (WHERE " + present + " IS NOT NULL AND " + number + " IS NULL))[1]"
            let extreme = SQL("\(function)(") + number + ")"
            let plain = SQL("CASE WHEN count(") + number + ") > 0 THEN " + Self.numberText(extreme) + " ELSE " + text + " END"
            return Self.galacticYearOr(plain, of: Self.text(of: expression, kind: kind), number: number, value: extreme)
        }
    }

    /// `value` written as a galactic year (`896BBY`, to three decimals, as memory writes it)
    /// when some of the group's values are written so, else `plain`.
    static func galacticYearOr(_ plain: SQL, of text: SQL, number: SQL, value: SQL) -> SQL {
        let years = SQL("trim_scale(round(abs((") + value + ")::numeric), 3))::text"
        return SQL("CASE WHEN ") + galacticYears(text, number: number) + "::int > 0 THEN " + years + " || CASE WHEN (" + value
            + ") > 0 THEN 'ABY' ELSE 'BBY' END ELSE " + plain + " END"
    }
}
