import AlmanacCore

/// `histogram FIELD` in SQL: the statistics that plan the bins (Histogram.numberPlan and the
/// others), the count per bin, and the words that were neither numbers nor dates — each one
/// statement over the rows the question matches, none fetching them.
extension QueryBuilder {
    /// Every value of the field as a row: `r` its record, `x` it as a finite number, `d` as a
    /// date (seconds since 1970), `v` its text when it is a string or a boolean — as
    /// FieldMeasurements reads a value in memory (a date first, then a number).
    func histogramValues(_ query: TableQuery, field: String) throws -> SQL {
        // OFFSET 0 keeps the planner from inlining the values into each aggregate that reads
        // them: each value's patterns are matched once (20,000 rows of text: 3.7 s before).
        try histogramRows(query, field: field) + " OFFSET 0"
    }

    private func histogramRows(_ query: TableQuery, field: String) throws -> SQL {
        var aliases = Aliases()
        let condition = try condition(query, aliases: &aliases)
        let from = try source(query)
        switch try source(of: field, in: query, aliases: &aliases).source {
        case let .scalar(column, kind, typeName):
            return SQL("SELECT NULL::bigint AS r, ") + Self.histogramColumns(column, kind: kind, typeName: typeName) + " FROM " + from + whereClause(condition)
        case let .set(set, _):
            // A row without values stays (LEFT JOIN), so the records are counted too.
            let rows = SQL("(SELECT t.*, row_number() OVER () AS \"almanac row\" FROM ") + from + whereClause(condition) + ") AS t"
            return SQL("SELECT t.\"almanac row\" AS r, d.x, d.d, d.v FROM ") + rows + " LEFT JOIN LATERAL (SELECT "
                + Self.histogramColumns(set.value, kind: set.kind, typeName: set.typeName) + set.fromWhere(nil) + ") AS d ON true"
        }
    }

    static func histogramColumns(_ value: SQL, kind: TableSchema.ValueKind, typeName: String) -> SQL {
        if isDate(typeName) {
            return SQL("NULL::float8 AS x, extract(epoch from ") + value + ")::float8 AS d, NULL::text AS v"
        }
        let x = finiteFloat8(describedNumber(of: value, kind: kind, typeName: typeName))
        switch kind {
        case .text:
            // Text that reads as a date never reads as a number: neither pattern takes the other.
            return x + " AS x, " + textDate(of: value, kind: kind) + " AS d, " + value + " AS v"
        case .json:
            return x + " AS x, " + textDate(of: value, kind: kind) + " AS d, CASE WHEN jsonb_typeof(" + value
                + ") IN ('string', 'boolean') THEN " + value + " #>> '{}' END AS v"
        case .boolean:
            return SQL("NULL::float8 AS x, NULL::float8 AS d, ") + text(of: value, kind: .boolean) + " AS v"
        case .number:
            return x + " AS x, NULL::float8 AS d, NULL::text AS v"
        case .other:
            return "NULL::float8 AS x, NULL::float8 AS d, NULL::text AS v"
        }
    }

    /// One row: records, records with a number, with a date, numbers, dates; the numbers'
    /// minimum, maximum, first and third quartile (percentile_cont interpolates as memory's
    /// quantile does), whether all are integers; the dates' minimum and maximum; how many
    /// numbers are above 0, their minimum and maximum; how many are galactic years; how many
    /// dates are after 1970.
    func histogramStatistics(_ query: TableQuery, field: String) throws -> SQL {
        let values = try histogramValues(query, field: field)
        // A scalar's rows are its records (r NULL); a list's values share their record's r.
        var sql = SQL("SELECT count(DISTINCT r) + count(*) FILTER (WHERE r IS NULL), ")
        sql.append("count(DISTINCT r) FILTER (WHERE x IS NOT NULL) + count(x) FILTER (WHERE r IS NULL), ")
        sql.append("count(DISTINCT r) FILTER (WHERE d IS NOT NULL) + count(d) FILTER (WHERE r IS NULL), ")
        sql.append("count(x), count(d), min(x), max(x), ")
        sql.append(Self.finitePercentile("0.25", of: "x") + ", " + Self.finitePercentile("0.75", of: "x") + ", ")
        sql.append(Self.allIntegers("x") + ", min(d), max(d), count(x) FILTER (WHERE x > 0), min(x) FILTER (WHERE x > 0), max(x) FILTER (WHERE x > 0), ")
        sql.append(SQL("count(*) FILTER (WHERE v ~* '[0-9.] *[ab]by$' AND x IS NOT NULL), count(d) FILTER (WHERE d > 0) FROM (") + values + ") AS v")
        return sql
    }

    /// Rows of a bin's position from 1 and its count, over the bins between consecutive
    /// `edges` (each holds its lower edge, the last its upper one too), of the numbers (`d`:
    /// the dates; `positive`: the numbers above 0).
    func histogramCounts(_ query: TableQuery, field: String, dates: Bool, positive: Bool, edges: [Double]) throws -> SQL {
        let values = try histogramValues(query, field: field)
        let value = dates ? "d" : "x"
        var sql = SQL("SELECT greatest(1, least(width_bucket(\(value), ")
        sql.bind("{" + edges.map { "\($0)" }.joined(separator: ",") + "}", as: "float8[]")
        sql.append(SQL("), \(edges.count - 1))), count(*) FROM (") + values + ") AS v WHERE \(value) IS NOT NULL"
            + (positive ? " AND x > 0" : "") + " GROUP BY 1")
        return sql
    }

    /// The commonest texts that are neither numbers nor dates, with their counts, most common
    /// first (ties in byte order, as memory sorts them).
    func histogramOthers(_ query: TableQuery, field: String, limit: Int) throws -> SQL {
        let values = try histogramValues(query, field: field)
        var sql = SQL("SELECT v, count(*) AS n FROM (") + values + ") AS v WHERE x IS NULL AND d IS NULL AND v IS NOT NULL "
            + "GROUP BY 1 ORDER BY n DESC, v COLLATE \"C\" LIMIT "
        sql.bind(String(limit), as: "bigint")
        return sql
    }
}
