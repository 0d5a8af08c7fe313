import AlmanacCore

/// The SQL of every operation on one table, aliased `t`. Values typed by a user are
/// parameters; identifiers come quoted from the catalog.
struct QueryBuilder {
    let schema: TableSchema

    private var filters: FilterSQL { FilterSQL(schema: schema) }
    private var folding: TextFolding { schema.folding }
    private var table: String { schema.quotedName + " AS t" }

    /// `search … AND filter … AND …`, or nil when nothing narrows the table.
    func condition(_ query: TableQuery, aliases: inout Aliases) throws -> SQL? {
        var conditions: [SQL] = []
        if let search = query.search { conditions.append(filters.searchCondition(search, aliases: &aliases)) }
        for filter in query.filters {
            try filters.validate(filter)
            conditions.append(try filters.condition(filter, aliases: &aliases))
        }
        return conditions.isEmpty ? nil : SQL.joined(conditions, separator: " AND ")
    }

    private func whereClause(_ condition: SQL?) -> SQL { condition.map { SQL(" WHERE ") + $0 } ?? SQL() }

    // MARK: - count and pages

    func count(_ query: TableQuery) throws -> SQL {
        var aliases = Aliases()
        return SQL("SELECT count(*) FROM \(table)") + whereClause(try condition(query, aliases: &aliases))
    }

    /// One page of rows as JSON objects (`row_to_json`), in the query's order, with their
    /// primary key values after them. `after`: the key of the last row of the previous page,
    /// to continue from it (keyset paging) where the order is the primary key's.
    func page(_ query: TableQuery, offset: Int, limit: Int, after: [String?]? = nil) throws -> SQL {
        var aliases = Aliases()
        var condition = try condition(query, aliases: &aliases)
        let (joins, order) = try ordering(query, aliases: &aliases)
        var offset = offset
        if let after, canContinueByKey(query), after.count == schema.primaryKey.count {
            let keys = schema.primaryKey.map { schema.columns[$0] }
            var tuple = SQL("(") + keys.map { "t." + $0.quoted }.joined(separator: ", ") + ") > ("
            tuple.append(SQL.joined(zip(keys, after).map { SQL.value($1, as: $0.typeName) }, separator: ", "))
            tuple.append(")")
            condition = condition.map { $0 + " AND " + tuple } ?? tuple
            offset = 0
        }
        var sql = SQL("SELECT row_to_json(t)::text")
        for key in schema.primaryKey { sql.append(", t.\(schema.columns[key].quoted)::text") }
        sql.append(" FROM \(table)")
        sql.append(joins)
        sql.append(whereClause(condition))
        if !order.isEmpty { sql.append(" ORDER BY "); sql.append(order) }
        sql.append(" LIMIT ")
        sql.bind(String(limit), as: "bigint")
        if offset > 0 {
            sql.append(" OFFSET ")
            sql.bind(String(offset), as: "bigint")
        }
        return sql
    }

    /// Every row of the query in order, for a cursor (export).
    func rows(_ query: TableQuery) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        let (joins, order) = try ordering(query, aliases: &aliases)
        var sql = SQL("SELECT row_to_json(t)::text FROM \(table)") + joins + whereClause(condition)
        if !order.isEmpty { sql.append(" ORDER BY "); sql.append(order) }
        return sql
    }

    /// Keyset paging works when rows come in primary-key order.
    func canContinueByKey(_ query: TableQuery) -> Bool {
        query.sort.isEmpty && query.search == nil && !schema.primaryKey.isEmpty
    }

    // MARK: - order

    /// Joins for sort keys that need them, and the `ORDER BY` terms: the sort keys, then the
    /// search's ranking, then the table's own order, so every order is total and repeatable.
    func ordering(_ query: TableQuery, aliases: inout Aliases) throws -> (joins: SQL, order: SQL) {
        var joins = SQL()
        var terms: [SQL] = []
        for key in query.sort {
            let reference = try FieldReference.resolve(key.field, in: schema)
            switch reference.source(aliases: &aliases) {
            case let .scalar(expression, kind, typeName):
                terms += order(expression, kind: kind, typeName: typeName, descending: key.descending)
            case let .set(values, _):
                // By the first value, as in memory.
                let first = aliases.next("k")
                joins.append(SQL(" LEFT JOIN LATERAL (SELECT ") + values.value + " AS k" + values.fromWhere(nil) + " LIMIT 1) AS \(first) ON true")
                terms += order(SQL("\(first).k"), kind: values.kind, typeName: values.typeName, descending: key.descending)
            }
        }
        if let search = query.search { terms.append(filters.searchRank(search)) }
        terms += schema.naturalOrder.map { SQL("t." + $0) }
        return (joins, SQL.joined(terms, separator: ", "))
    }

    /// Numbers numerically, text folded and by code point, booleans false first, other types
    /// (dates, times) by their own order; absent values (and NaN) last either way.
    private func order(_ expression: SQL, kind: TableSchema.ValueKind, typeName: String, descending: Bool) -> [SQL] {
        let direction = descending ? " DESC NULLS LAST" : " ASC NULLS LAST"
        switch kind {
        case .text:
            return [SQL("(") + folding.fold(expression) + " COLLATE \"C\")" + direction]
        case .number:
            let floating = ["real", "double precision", "numeric"].contains(where: { typeName.hasPrefix($0) })
            return [(floating ? SQL("NULLIF(") + expression + ", 'NaN')" : expression) + direction]
        case .boolean, .other:
            return [expression + direction]
        case .json:
            // Numbers before text (descending: text first); absent and null last.
            let type = SQL("jsonb_typeof(") + expression + ")"
            let absent = SQL("(") + expression + " IS NULL OR " + type + " = 'null')"
            let rank = SQL("CASE ") + type + " WHEN 'number' THEN 0 ELSE 1 END"
            let number = SQL("CASE WHEN ") + type + " = 'number' THEN (" + expression + ")::numeric END"
            let text = SQL("(CASE WHEN ") + type + " <> 'number' THEN " + folding.fold(SQL("(") + expression + " #>> '{}')") + " END COLLATE \"C\")"
            let way = descending ? " DESC" : " ASC"
            return [absent + " ASC", rank + way, number + way, text + way]
        }
    }

    // MARK: - group

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
            let reference = try FieldReference.resolve(field, in: schema)
            switch reference.source(aliases: &aliases) {
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
            aggregates.append(try self.aggregate(aggregate, joins: &joins, aliases: &aliases))
        }
        var columns: [SQL] = []
        for (index, value) in values.enumerated() {
            columns.append(SQL("coalesce(") + value.text + ", '') AS v\(index)")
            columns.append(value.isNumber + " AS number\(index)")
        }
        columns.append("count(*) AS n")
        columns += aggregates.enumerated().map { SQL("") + $1 + " AS a\($0)" }
        var inner = SQL("SELECT ") + SQL.joined(columns, separator: ", ") + " FROM \(table)"
        inner.append(joins)
        inner.append(whereClause(condition))
        inner.append(" GROUP BY " + (1...values.count * 2).map(String.init).joined(separator: ", "))

        var totalAliases = aliases
        let total = SQL("(SELECT count(*) FROM \(table)") + whereClause(try self.condition(query, aliases: &totalAliases)) + ")"
        var outer: [SQL] = []
        for index in values.indices { outer += [SQL("v\(index)"), SQL("number\(index)::text")] }
        outer.append("n")
        outer.append(SQL("(n * 100.0 / NULLIF(") + total + ", 0))::float8::text")
        outer += (0..<aggregates.count).map { SQL("a\($0)") }
        var sql = SQL("SELECT ") + SQL.joined(outer, separator: ", ") + " FROM (" + inner + ") AS grouped ORDER BY n DESC"
        for index in values.indices {
            sql.append(SQL(", ") + folding.fold(SQL("v\(index)")) + " COLLATE \"C\", v\(index) COLLATE \"C\"")
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
                + present(SQL("(") + expression + " #>> '{}')") + " ELSE " + expression + " #>> '{}' END"
        }
    }

    /// NULL for "", `n/a`, `unknown` and `none` (`ValueText.isAbsent`).
    static func present(_ text: SQL) -> SQL {
        SQL("CASE WHEN octet_length(") + text + ") <= 12 AND lower(btrim(" + text + ")) IN ('', 'n/a', 'unknown', 'none') THEN NULL ELSE "
            + text + " END"
    }

    /// `sum population`: over numbers (text that reads as a number counts); `min`/`max` of
    /// numbers, or of text when the field is text; `distinct`: how many different values.
    private func aggregate(_ aggregate: Aggregate, joins: inout SQL, aliases: inout Aliases) throws -> SQL {
        let reference = try FieldReference.resolve(aggregate.field, in: schema)
        let expression: SQL
        let kind: TableSchema.ValueKind
        switch reference.source(aliases: &aliases) {
        case let .scalar(column, columnKind, _):
            expression = column
            kind = columnKind
        case let .set(values, _):
            // A list's or a path's first value, as sort takes it.
            let first = aliases.next("k")
            joins.append(SQL(" LEFT JOIN LATERAL (SELECT ") + values.value + " AS k" + values.fromWhere(nil) + " LIMIT 1) AS \(first) ON true")
            expression = SQL("\(first).k")
            kind = values.kind
        }
        let number = Self.number(of: expression, kind: kind)
        switch aggregate.function {
        case .count:
            return SQL("count(") + (kind == .json ? SQL("NULLIF(") + expression + ", 'null'::jsonb)" : expression) + ")::text"
        case .distinct:
            return SQL("count(DISTINCT ") + Self.text(of: expression, kind: kind) + ")::text"
        case .sum:
            return Self.numberText(SQL("sum(") + number + ")")
        case .avg:
            return SQL("avg(") + number + ")::float8::text"
        case .min, .max:
            let function = aggregate.function.rawValue
            if kind == .text { return SQL("\(function)(") + expression + " COLLATE \"C\")" }
            return Self.numberText(SQL("\(function)(") + number + ")")
        }
    }

    // MARK: - describe

    /// Counts, distinct values and, over numbers, min, max, mean and quartiles, for each field,
    /// in one pass: a row per field, in order.
    func describe(_ query: TableQuery, fields: [String]) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        var parts: [SQL] = []
        for (index, field) in fields.enumerated() {
            let reference = try FieldReference.resolve(field, in: schema)
            switch reference.source(aliases: &aliases) {
            case let .scalar(column, kind, _):
                parts.append(describeScalar(index: index, column: column, kind: kind, condition: condition))
            case let .set(set, _):
                parts.append(describeSet(index: index, set: set, condition: condition))
            }
        }
        return SQL.joined(parts, separator: " UNION ALL ") + " ORDER BY 1"
    }

    /// Columns: position, present, absent, distinct, min, max, mean, q1, median, q3 (text).
    private func describeScalar(index: Int, column: SQL, kind: TableSchema.ValueKind, condition: SQL?) -> SQL {
        let number = Self.number(of: column, kind: kind)
        let isNumber = kind == .number
        var sql = SQL("SELECT \(index), count(") + column + ")::text, (count(*) - count(" + column + "))::text, count(DISTINCT "
            + column + ")::text, "
        sql.append(numberStatistics(number, enabled: isNumber))
        sql.append(" FROM \(table)")
        sql.append(whereClause(condition))
        return SQL("(") + sql + ")"
    }

    private func describeSet(index: Int, set: ValueSet, condition: SQL?) -> SQL {
        // Rows with at least one value; then statistics over all the values of all rows.
        let present = Self.text(of: set.value, kind: set.kind) + " IS NOT NULL"
        let rows = SQL("SELECT EXISTS (SELECT 1") + set.fromWhere(present) + ") AS has FROM \(table)" + whereClause(condition)
        let number = Self.number(of: set.value, kind: set.kind)
        let values = SQL("SELECT d.v, d.x FROM \(table) CROSS JOIN LATERAL (SELECT ") + Self.text(of: set.value, kind: set.kind)
            + " AS v, " + number + " AS x" + set.fromWhere(nil) + ") AS d" + whereClause(condition)
        var sql = SQL("SELECT \(index), r.present, r.absent, v.* FROM (SELECT count(*) FILTER (WHERE has)::text AS present, ")
        sql.append(SQL("count(*) FILTER (WHERE NOT has)::text AS absent FROM (") + rows + ") AS counted) AS r, (SELECT count(DISTINCT v)::text, ")
        sql.append(numberStatistics(SQL("x"), enabled: set.kind == .number || set.kind == .json))
        sql.append(SQL(" FROM (") + values + ") AS valued) AS v")
        return SQL("(") + sql + ")"
    }

    private func numberStatistics(_ number: SQL, enabled: Bool) -> SQL {
        guard enabled else { return "NULL, NULL, NULL, NULL, NULL, NULL" }
        let value = SQL("(") + number + ")::float8"
        var sql = SQL("min(") + value + ")::text, max(" + value + ")::text, avg(" + value + ")::text"
        for fraction in ["0.25", "0.5", "0.75"] {
            sql.append(SQL(", (percentile_cont(\(fraction)) WITHIN GROUP (ORDER BY ") + value + "))::text")
        }
        return sql
    }

    /// The most common values of a field, with their counts, most common first (ties by value).
    func commonValues(_ query: TableQuery, field: String, limit: Int) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        let reference = try FieldReference.resolve(field, in: schema)
        var sql: SQL
        switch reference.source(aliases: &aliases) {
        case let .scalar(column, kind, _):
            sql = SQL("SELECT ") + Self.text(of: column, kind: kind) + " AS v, count(*) AS n FROM \(table)"
            sql.append(whereClause(condition.map { $0 + " AND " + column + " IS NOT NULL" } ?? (column + " IS NOT NULL")))
        case let .set(set, _):
            sql = SQL("SELECT d.v, count(*) AS n FROM \(table) CROSS JOIN LATERAL (SELECT DISTINCT ")
                + Self.text(of: set.value, kind: set.kind) + " AS v" + set.fromWhere(nil) + ") AS d"
            sql.append(whereClause(condition))
        }
        sql.append(" GROUP BY 1")
        var ordered = SQL("SELECT v, n FROM (") + sql + ") AS counted ORDER BY n DESC, v COLLATE \"C\" LIMIT "
        ordered.bind(String(limit), as: "bigint")
        return ordered
    }

    // MARK: - show and completion

    /// The row whose primary key is `identity`, as the key's own type; nil without a
    /// one-column key. An identity that is not of the key's type is no error, just no row.
    func byIdentity(_ identity: String) -> SQL? {
        guard schema.primaryKey.count == 1 else { return nil }
        let key = schema.columns[schema.primaryKey[0]]
        var sql = SQL("SELECT row_to_json(t)::text FROM \(table) WHERE t.\(key.quoted) = ")
        sql.bind(identity, as: key.typeName)
        if key.kind == .text {
            // Ignoring case, as show does in memory.
            sql.append(" OR upper(t.\(key.quoted)) = upper(")
            sql.bind(identity)
            sql.append(")")
        }
        sql.append(" LIMIT 2")
        return sql
    }

    /// Rows named `name` (folded), or failing that, whose names begin with it; with how many
    /// there are in all. At most `limit` rows, in name order.
    func byName(_ name: String, prefix: Bool, limit: Int) -> SQL? {
        guard let index = schema.nameColumn else { return nil }
        let column = schema.columns[index]
        let folded = folding.fold(Self.text(of: SQL("t." + column.quoted), kind: column.kind))
        let wanted = SQL("(SELECT ") + folding.fold(SQL.value(name)) + ")"
        var sql = SQL("SELECT row_to_json(t)::text, count(*) OVER () FROM \(table) WHERE ")
        sql.append(prefix ? SQL("starts_with(") + folded + ", " + wanted + ")" : folded + " = " + wanted)
        sql.append(SQL(" ORDER BY ") + folded + " COLLATE \"C\"")
        for term in schema.naturalOrder { sql.append(", t." + term) }
        sql.append(" LIMIT ")
        sql.bind(String(limit), as: "bigint")
        return sql
    }

    /// Rows with another name (`Layout.otherNameFields`) equal to `name`, folded, in the
    /// table's order: `show "Oscar Wilde"` in a table of quotes.
    func byOtherName(_ name: String, limit: Int) -> SQL? {
        let others = schema.layout.otherNameFields.compactMap { try? FieldReference.resolve($0, in: schema) }
        guard !others.isEmpty else { return nil }
        var aliases = Aliases()
        let comparison = Comparison(op: .equal, value: name, folding: folding)
        let conditions = others.map { filters.anyValue($0.source(aliases: &aliases), matches: comparison) }
        var sql = SQL("SELECT row_to_json(t)::text, count(*) OVER () FROM \(table) WHERE (") + SQL.joined(conditions, separator: " OR ") + ")"
        if !schema.naturalOrder.isEmpty { sql.append(" ORDER BY " + schema.naturalOrder.map { "t." + $0 }.joined(separator: ", ")) }
        sql.append(" LIMIT ")
        sql.bind(String(limit), as: "bigint")
        return sql
    }

    /// Names beginning with `prefix` (folded), for TAB: the first `limit` found.
    func names(startingWith prefix: String, limit: Int) -> SQL? {
        guard let index = schema.nameColumn else { return nil }
        let column = schema.columns[index]
        let name = Self.text(of: SQL("t." + column.quoted), kind: column.kind)
        var sql = SQL("SELECT DISTINCT v FROM (SELECT ") + name + " AS v FROM \(table) WHERE starts_with("
        sql.append(folding.fold(name) + ", (SELECT " + folding.fold(SQL.value(prefix)) + ")) LIMIT ")
        sql.bind(String(limit * 20), as: "bigint")
        sql.append(") AS found LIMIT ")
        sql.bind(String(limit), as: "bigint")
        return sql
    }

    /// A field's values beginning with `prefix` (folded), for TAB.
    func values(of field: String, startingWith prefix: String, limit: Int) throws -> SQL {
        var aliases = Aliases()
        let reference = try FieldReference.resolve(field, in: schema)
        let text: SQL
        var from = SQL(" FROM \(table)")
        switch reference.source(aliases: &aliases) {
        case let .scalar(column, kind, _):
            text = Self.text(of: column, kind: kind)
        case let .set(set, _):
            from.append(SQL(" CROSS JOIN LATERAL (SELECT ") + Self.text(of: set.value, kind: set.kind) + " AS v" + set.fromWhere(nil) + ") AS d")
            text = "d.v"
        }
        var sql = SQL("SELECT DISTINCT v FROM (SELECT ") + text + " AS v" + from + " WHERE starts_with("
        sql.append(folding.fold(text) + ", (SELECT " + folding.fold(SQL.value(prefix)) + ")) LIMIT ")
        sql.bind(String(limit * 100), as: "bigint")
        sql.append(") AS found WHERE v IS NOT NULL LIMIT ")
        sql.bind(String(limit), as: "bigint")
        return sql
    }

    // MARK: - values as text and numbers

    /// A value as the text almanac shows for it: numbers in their plainest form (`210`,
    /// `27.8`), booleans as words, JSON scalars by their type (null is no value, as SQL's
    /// NULL), anything else as JSON has it.
    static func text(of expression: SQL, kind: TableSchema.ValueKind) -> SQL {
        switch kind {
        case .text: return expression
        case .number: return numberText(expression)
        case .boolean: return SQL("CASE WHEN ") + expression + " THEN 'true' WHEN NOT " + expression + " THEN 'false' END"
        case .other: return SQL("(to_jsonb(") + expression + ") #>> '{}')"
        case .json:
            return SQL("CASE jsonb_typeof(") + expression + ") WHEN 'number' THEN " + numberText(SQL("(") + expression + ")::numeric")
                + " WHEN 'null' THEN NULL ELSE " + expression + " #>> '{}' END"
        }
    }

    /// `210` for whole numbers, the shortest exact form of a double otherwise, as almanac
    /// writes numbers (`NumberFormat.plain`).
    static func numberText(_ expression: SQL) -> SQL {
        let value = SQL("(") + expression + ")"
        return SQL("CASE WHEN abs(") + value + ") < 1e15 AND " + value + " = trunc(" + value + ") THEN trunc(" + value
            + ")::bigint::text ELSE " + value + "::float8::text END"
    }

    /// A value as a number, or NULL: numbers, JSON numbers, and text that reads as one.
    static func number(of expression: SQL, kind: TableSchema.ValueKind) -> SQL {
        switch kind {
        case .number: return SQL("(") + expression + ")::numeric"
        case .json:
            return SQL("CASE WHEN jsonb_typeof(") + expression + ") = 'number' THEN (" + expression + ")::numeric END"
        case .text:
            let cleaned = SQL("replace(btrim(") + expression + ", E' \\t'), ',', '')"
            return SQL("CASE WHEN ") + cleaned + " ~ '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?$' THEN " + cleaned + "::numeric END"
        case .boolean, .other: return "NULL::numeric"
        }
    }
}
