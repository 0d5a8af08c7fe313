import AlmanacCore

/// `reach` in SQL: the row's code among the codes found (bound as a `text[]`), its place in
/// that list as the order, and the distance bound beside it.
extension QueryBuilder {
    private func code(_ reach: ReachQuery) throws -> SQL { try singleText(reach.field, what: "reach reads one code") }

    private func codes(_ reach: ReachQuery) -> SQL { SQL.value(LinkHop.arrayLiteral(reach.codes), as: "text[]") }

    func reachCondition(_ reach: ReachQuery) throws -> SQL { try code(reach) + " = ANY(" + codes(reach) + ")" }

    func reachPosition(_ reach: ReachQuery) throws -> SQL { SQL("array_position(") + codes(reach) + ", " + (try code(reach)) + ")" }

    func reachDistance(_ reach: ReachQuery) throws -> SQL {
        SQL("(") + SQL.value("{" + reach.distances.map(String.init).joined(separator: ",") + "}", as: "int8[]") + ")["
            + (try reachPosition(reach)) + "]"
    }
}
