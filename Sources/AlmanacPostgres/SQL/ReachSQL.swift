import AlmanacCore

/// `reach` in SQL: the row's code among the codes found (bound as a `text[]`), its place in
/// that list as the order, and the distance bound beside it.
extension QueryBuilder {
    private func code(_ reach: ReachQuery) throws -> SQL {
        var aliases = Aliases()
        guard case let .scalar(column, kind, _) = try FieldReference.resolve(reach.field, in: schema).source(aliases: &aliases) else {
            throw QueryError.invalid("reach reads one code per row from \(reach.field), and it holds lists")
        }
        return Self.text(of: column, kind: kind)
    }

    private func codes(_ reach: ReachQuery) -> SQL { SQL.value(LinkHop.arrayLiteral(reach.codes), as: "text[]") }

    func reachCondition(_ reach: ReachQuery) throws -> SQL { try code(reach) + " = ANY(" + codes(reach) + ")" }

    func reachPosition(_ reach: ReachQuery) throws -> SQL { SQL("array_position(") + codes(reach) + ", " + (try code(reach)) + ")" }

    func reachDistance(_ reach: ReachQuery) throws -> SQL {
        SQL("(") + SQL.value("{" + reach.distances.map(String.init).joined(separator: ",") + "}", as: "int8[]") + ")["
            + (try reachPosition(reach)) + "]"
    }
}
