import AlmanacCore

/// Counts per value in SQL: what TAB lists after `filter FIELD = ` and what explanations read.
extension QueryBuilder {
    /// How many rows `query` shapes have each value of `field` (a list's values once per row),
    /// values whose folding starts with `prefix`'s, most rows first (equal counts by value as
    /// `group` orders them), at most `limit`; no value (null, the words for none) is left out.
    func valueCounts(_ query: TableQuery, field: String, prefix: String, limit: Int) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        let reference = try FieldReference.resolve(field, in: schema)
        let text: SQL
        var joins = SQL()
        // The values a filter compares: an object by its name.
        switch reference.comparedSource(aliases: &aliases) {
        case let .scalar(column, kind, _):
            text = Self.groupText(of: column, kind: kind)
        case let .set(set, _):
            joins.append(SQL(" CROSS JOIN LATERAL (SELECT DISTINCT ") + Self.groupText(of: set.value, kind: set.kind) + " AS v"
                         + set.fromWhere(nil) + ") AS d")
            text = "d.v"
        }
        var sql = SQL("SELECT v, count(*) FROM (SELECT ") + text + " AS v FROM " + (try source(query)) + joins + whereClause(condition)
            + ") AS found WHERE v IS NOT NULL"
        if !prefix.isEmpty {
            sql.append(SQL(" AND starts_with(") + folding.fold(SQL("v")) + ", (SELECT " + folding.fold(SQL.value(prefix)) + "))")
        }
        sql.append(SQL(" GROUP BY v ORDER BY count(*) DESC, ") + folding.fold(SQL("v")) + " COLLATE \"C\", v COLLATE \"C\" LIMIT ")
        sql.bind(String(limit), as: "bigint")
        return sql
    }
}
