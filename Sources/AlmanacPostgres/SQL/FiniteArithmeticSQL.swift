import AlmanacCore

/// `+`, `-`, `*` and `/` of float8 without PostgreSQL's range errors, as memory computes them
/// (`ExpressionFunction.finite`): a result past a Double's range is no value, one below its
/// smallest is 0. Operands from 1e-150 to 1e150 in size (or 0) reach neither and are computed
/// as they are; others are measured first in numeric, exactly from float8's shortest text,
/// and computed as float8 only when the result is in range.
extension ExpressionSQL {
    /// `left OP right` (`+`, `-`, `*`, `/`). Guarded only where a number written in the
    /// expression is past 1e150 or under 1e-150 in size (`1e308 * 10`): elsewhere the statement
    /// is as it was, as its cost decides the planner's way of grouping, and with it the order a
    /// group's doubles are added in. Simple operands (a column, a number) are repeated; others
    /// are computed once, in a subquery.
    func finite(_ op: ArithmeticOperator, _ left: SQL, _ right: SQL, of operands: (BoundExpression, BoundExpression),
                aliases: inout Aliases) -> SQL {
        let symbol = " \(op.rawValue) "
        guard Self.reachesExtremes(operands.0) || Self.reachesExtremes(operands.1) else {
            return op == .divide ? SQL("(") + left + " / NULLIF(" + right + ", 0))" : SQL("(") + left + symbol + right + ")"
        }
        let simple = isSimple(operands.0) && isSimple(operands.1)
        let once = aliases.next("o")
        let (x, y) = simple ? (SQL("(") + left + ")", SQL("(") + right + ")") : (SQL("\(once).x"), SQL("\(once).y"))
        let computed = SQL("(") + x + symbol + y + ")"
        func exact(_ value: SQL) -> SQL { SQL("(") + value + ")::text::numeric" }
        func small(_ value: SQL) -> SQL { SQL("abs(") + value + ") BETWEEN 1e-150 AND 1e150" }
        let fast: SQL
        switch op {
        case .add, .subtract: fast = SQL("abs(") + x + ") < 8e307 AND abs(" + y + ") < 8e307"
        case .divide: fast = SQL("(") + small(x) + " OR " + x + " = 0) AND " + small(y)
        default: fast = SQL("(") + small(x) + " OR " + x + " = 0) AND (" + small(y) + " OR " + y + " = 0)"
        }
        // Infinity and NaN (a float8 column may hold them) are no value, as in memory; so is a
        // division by 0. The exact result past the largest Double (its last step, rounded up,
        // is 2^1024) is none; at most 2^-1075 (half the smallest) rounds to 0.
        let p = SQL("(") + exact(x) + symbol + exact(y) + ")"
        let measured = SQL("CASE WHEN abs(") + p + ") >= \(Self.past) THEN NULL WHEN " + p + " <> 0 AND abs(" + p + ") * \(Self.belowInverse) <= 1 "
            + "THEN 0::float8 ELSE " + computed + " END"
        let slow = SQL("CASE WHEN NOT (abs(") + x + ") < 'Infinity'::float8 AND abs(" + y + ") < 'Infinity'::float8)"
            + (op == .divide ? SQL(" OR ") + y + " = 0" : SQL()) + " THEN NULL ELSE " + measured + " END"
        let sql = SQL("(CASE WHEN ") + fast + " THEN " + computed + " ELSE " + slow + " END)"
        guard !simple else { return sql }
        return SQL("(SELECT ") + sql + " FROM (SELECT " + left + " AS x, " + right + " AS y OFFSET 0) AS \(once))"
    }

    /// Whether a number written in `bound` is past 1e150 or under 1e-150 in size (not 0).
    static func reachesExtremes(_ bound: BoundExpression) -> Bool {
        switch bound.kind {
        case let .number(value): return value != 0 && !(1e-150...1e150).contains(abs(value))
        case let .negate(inner), let .cast(inner): return reachesExtremes(inner)
        case let .arithmetic(_, left, right): return reachesExtremes(left) || reachesExtremes(right)
        case let .call(_, arguments): return arguments.contains(where: reachesExtremes)
        default: return false
        }
    }

    /// A number or a field read once per row: cheap to repeat.
    func isSimple(_ bound: BoundExpression) -> Bool {
        switch bound.kind {
        case .number, .field, .null: !bound.type.isList
        default: false
        }
    }

    /// 2^1024 - 2^970: from here a product or sum rounds to infinity.
    static let past = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"
    /// 2^1075: a result whose size times this is at most 1 rounds to 0.
    static let belowInverse = "404804506614621236704990693437834614099113299528284236713802716054860679135990693783920767402874248990374155728633623822779617474771586953734026799881477019843034848553132722728933815484186432682479535356945490137124014966849385397236206711298319112681620113024717539104666829230461005064372655017292012526615415482186989568"
}
