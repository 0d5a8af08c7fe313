import AlmanacCore

/// One `FIELD OP VALUE` on one value, in SQL, with almanac's in-memory meaning (see `Filter`):
/// text compares folded (no case; no accents with unaccent), numbers numerically when the
/// value is a number, and as the text of their literal otherwise (`population ~ 537`);
/// ordering text against a number reads the text as a number (`"200" > 100`) or fails;
/// `true`, `false` and null compare as those words. `!=` and `!~` are the negations of
/// `=` and `~` over all the values a field has (see `FilterSQL`).
struct Comparison {
    /// `=`, `~`, `<`, `<=`, `>`, `>=` (negations are applied around it).
    let op: FilterExpression.Operator
    let value: String
    let folding: TextFolding

    init(op: FilterExpression.Operator, value: String, folding: TextFolding) {
        self.op = op == .notEqual ? .equal : (op == .notContains ? .contains : op)
        self.value = value
        self.folding = folding
    }

    /// The value as a number, as almanac reads it (`NumericText.literal`: `100BBY` too), when it is one.
    var number: Double? { NumericText.literal(value) }

    /// Whether the value is an ISO 8601 date (`CalendarDate`) and no number, which text is
    /// ordered against by its instant (as `FieldComparison.dateValue`).
    var isDate: Bool { number == nil && CalendarDate.seconds(value) != nil }

    private var comparesNumerically: Bool { number != nil && op != .contains }

    /// Whether a null compares true: null is the word "null" (`field = null`, `field ~ nul`),
    /// decided here with almanac's own folding, like every literal; to `<`, `>`, `<=`, `>=` it
    /// is no value, which orders against nothing (as in memory).
    var matchesNull: Bool { !op.isOrderingOperator && Self.literalMatches("null", op: op, value: value) }

    static func literalMatches(_ literal: String, op: FilterExpression.Operator, value: String) -> Bool {
        if op.isOrderingOperator, NumericText.literal(value) != nil { return false }
        let text = Folding.fold(literal)
        let wanted = Folding.fold(value)
        switch op {
        case .equal: return text == wanted
        case .contains: return wanted.isEmpty || text.contains(wanted)
        case .less: return Array(text.utf8).lexicographicallyPrecedes(Array(wanted.utf8))
        case .lessOrEqual: return !Array(wanted.utf8).lexicographicallyPrecedes(Array(text.utf8))
        case .greater: return Array(wanted.utf8).lexicographicallyPrecedes(Array(text.utf8))
        case .greaterOrEqual: return !Array(text.utf8).lexicographicallyPrecedes(Array(wanted.utf8))
        default: return false
        }
    }

    /// The comparison on `expression`, a value of `kind` (never NULL here: callers handle it).
    func on(_ expression: SQL, kind: TableSchema.ValueKind, typeName: String) -> SQL {
        switch kind {
        case .text: return text(expression)
        case .number: return number(expression, typeName: typeName)
        case .boolean: return text(SQL("CASE WHEN ") + expression + " THEN 'true' ELSE 'false' END")
        case .other:
            if op.isOrderingOperator, isDate, QueryBuilder.isDate(typeName) {
                // A date or timestamp column by its instant (one without a time zone in UTC).
                return SQL("(extract(epoch from ") + expression + ")::float8 \(op.rawValue) (SELECT "
                    + ExpressionSQL.epoch(ofText: SQL.value(value)) + "))"
            }
            return text(SQL("(to_jsonb(") + expression + ") #>> '{}')")
        case .json:
            // A jsonb scalar: by its JSON type.
            var sql = SQL("CASE jsonb_typeof(") + expression + ") WHEN 'number' THEN "
            sql.append(number(SQL("(") + expression + ")::numeric", typeName: "numeric"))
            sql.append(matchesNull ? " WHEN 'null' THEN true" : " WHEN 'null' THEN false")
            sql.append(" ELSE ")
            sql.append(text(SQL("(") + expression + " #>> '{}')"))
            sql.append(" END")
            return sql
        }
    }

    /// Text against the value.
    func text(_ expression: SQL) -> SQL {
        if op.isOrderingOperator, let number {
            // Text ordered against a number counts only when it reads as one.
            guard number.isFinite else { return "false" }
            var sql = SQL("(") + QueryBuilder.number(of: expression, kind: .text) + " \(op.rawValue) "
            sql.bind(exactText(number), as: "numeric")
            sql.append(")")
            return sql
        }
        if op.isOrderingOperator, isDate {
            // Text ordered against a date counts only when it reads as one, by its instant (a
            // time without an offset is UTC); the value is read by the same SQL, once.
            return SQL("(") + ExpressionSQL.epoch(ofText: expression) + " \(op.rawValue) (SELECT "
                + ExpressionSQL.epoch(ofText: SQL.value(value)) + "))"
        }
        let folded = folding.fold(expression)
        // The value is folded once, not per row.
        let wanted = SQL("(SELECT ") + folding.fold(SQL.value(value)) + ")"
        switch op {
        case .equal: return folded + " = " + wanted
        case .contains: return SQL("strpos(") + folded + ", " + wanted + ") > 0"
        default:
            // The words for no value (`n/a`, `unknown`, ''…) are NULL here: they order against
            // nothing, as in memory, while `=` and `~` read them as words.
            return SQL("(") + folding.fold(QueryBuilder.present(expression)) + " COLLATE \"C\") \(op.rawValue) " + wanted
        }
    }

    /// A number against the value: numerically when it is a number, else by the number's text.
    func number(_ expression: SQL, typeName: String) -> SQL {
        guard comparesNumerically, let number else { return text(SQL("(") + expression + ")::text") }
        guard number.isFinite else { return "false" }
        // The column's own kind of number where that is exact, so an index on it can be used.
        let integral = number == number.rounded() && abs(number) < 9e15
        let type: String
        switch typeName {
        case "smallint", "integer", "bigint": type = integral ? "bigint" : "numeric"
        case "real", "double precision": type = "double precision"
        default: type = "numeric"
        }
        return SQL("(") + expression + " \(op.rawValue) " + SQL.value(exactText(number), as: type) + ")"
    }

    /// The value as the number to bind: past 2⁵³ the value as written, which a Double would
    /// round to its neighbour (`…891` is `…890` as a Double), else `numberText`.
    func exactText(_ number: Double) -> String {
        guard ExactNumber.isAmbiguous(number), ExactNumber(value) != nil else { return Self.numberText(number) }
        return value.replacingOccurrences(of: ",", with: "").trimmingCharacters(in: .whitespaces)
    }

    /// A number as PostgreSQL reads it: digits for whole numbers, else Swift's shortest form.
    static func numberText(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 9e15 ? String(Int64(number)) : "\(number)"
    }
}

extension FilterExpression.Operator {
    var isOrderingOperator: Bool { self == .less || self == .lessOrEqual || self == .greater || self == .greaterOrEqual }
}
