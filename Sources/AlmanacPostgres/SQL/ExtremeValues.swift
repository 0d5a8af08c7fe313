/// Guards for the values a hostile table holds (issue 31): numeric `1e400`, float8 `NaN` and
/// `±Infinity`, text `9e999999` among numbers. Each is treated as memory treats it — text
/// that reads as a number only when a Double holds it, statistics over finite numbers — so one
/// odd value never turns a whole command into an overflow error.
extension QueryBuilder {
    /// The largest Double, as numeric text.
    static let largestDouble = "1.7976931348623157e308"

    /// `number` as float8, NULL when a Double cannot hold it (NaN, ±Infinity, `1e400`):
    /// the cast never overflows. A numeric NaN sorts above every number, so it is outside too.
    static func finiteFloat8(_ number: SQL) -> SQL {
        let value = SQL("(") + number + ")"
        return SQL("CASE WHEN ") + value + " BETWEEN -\(largestDouble) AND \(largestDouble) THEN " + value + "::float8 END"
    }

    /// The same values in their own type: min and max of a numeric past 2⁵³ stay exact.
    static func finiteNumber(_ number: SQL) -> SQL {
        let value = SQL("(") + number + ")"
        return SQL("CASE WHEN ") + value + " BETWEEN -\(largestDouble) AND \(largestDouble) THEN " + value + " END"
    }

    /// Text (`cleaned`: trimmed, without thousands separators) as a number, NULL unless it
    /// reads as a finite Double — as `NumericText` reads it in memory. The pattern's exponent
    /// of at most three digits and the length bound keep the cast to numeric from overflowing.
    static func numberFromText(_ cleaned: SQL) -> SQL {
        let readable = cleaned + " ~ '^[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]{1,3})?$' AND length(" + cleaned + ") <= 1000"
        // Nested CASEs: SQL does not promise to evaluate AND's operands in order.
        return SQL("CASE WHEN ") + readable + " THEN CASE WHEN abs(" + cleaned + "::numeric) <= \(largestDouble) THEN "
            + cleaned + "::numeric END END"
    }
}

extension QueryBuilder {
    /// The name column's text, `t.`-qualified: a `text[]` name (`{alpha,beta}`) reads as its
    /// elements joined as they are shown (`alpha, beta`), never as an array that `lower` and
    /// `octet_length` refuse.
    static func nameText(_ column: TableSchema.Column) -> SQL {
        let reference = SQL("t." + column.quoted)
        return column.isArray ? SQL("array_to_string(") + reference + ", ', ')" : text(of: reference, kind: column.kind)
    }
}

extension QueryBuilder {
    /// The mean of finite float8 `value`s without overflowing: values of 1e150 and more are
    /// summed as numeric (float8 `avg` also sums squares, and 1e155² overflows: "value out of
    /// range"), the rest as float8 — so without such values it is `avg`, as memory adds them.
    static func finiteMean(_ value: SQL) -> SQL {
        let huge = SQL("abs(") + value + ") >= 1e150"
        return SQL("CASE WHEN count(*) FILTER (WHERE ") + huge + ") = 0 THEN avg(" + value + ") FILTER (WHERE NOT " + huge
            + ") ELSE ((coalesce(sum(" + value
            + ") FILTER (WHERE NOT " + huge + "), 0)::numeric + sum((" + value + ")::numeric) FILTER (WHERE " + huge
            + ")) / count(" + value + "))::float8 END"
    }

    /// `percentile_cont(fraction)` of finite float8 `value`s, interpolated between halves: the
    /// distance from -1e308 to 1e308 overflows, half of it does not, and halving and doubling
    /// are exact — but PostgreSQL calls a subnormal half an underflow error, so values under
    /// 1e-300 count as 0.
    static func finitePercentile(_ fraction: String, of value: SQL) -> SQL {
        let half = SQL("CASE WHEN abs(") + value + ") < 1e-300 THEN 0 ELSE (" + value + ") / 2 END"
        return SQL("(2 * percentile_cont(\(fraction)) WITHIN GROUP (ORDER BY ") + half + "))"
    }
}

extension QueryBuilder {
    /// The sum of finite float8 `value`s as almanac writes numbers, never overflowing: as float8
    /// (memory's sum) unless values of 1e290 and more are there, which are added as numeric.
    static func finiteSumText(_ value: SQL) -> SQL {
        let huge = SQL("abs(") + value + ") >= 1e290"
        let small = SQL("sum(") + value + ") FILTER (WHERE NOT " + huge + ")"
        return SQL("CASE WHEN count(*) FILTER (WHERE ") + huge + ") = 0 THEN " + numberText(small) + " ELSE "
            + numberText(SQL("sum((") + value + ")::numeric) FILTER (WHERE " + huge + ") + coalesce(" + small + ", 0)::numeric") + " END"
    }
}
