import AlmanacCore

/// The rows of one group of a `group` listing (`show #N` after `group`, drill-down), as a
/// condition: each grouping field's value as `group` computed it — the same expression, so a
/// row counted in a group is a row of it.
extension QueryBuilder {
    func drillCondition(_ drill: GroupDrill, in query: TableQuery, aliases: inout Aliases) throws -> SQL {
        var conditions: [SQL] = []
        for (index, field) in drill.fields.enumerated() {
            let value = drill.values[index]
            let reference = try source(of: field, in: query, aliases: &aliases, reading: .whole)
            switch reference.source {
            case let .scalar(expression, kind, _):
                let text = Self.groupText(of: expression, kind: kind)
                if value.isEmpty {
                    conditions.append(SQL("(") + text + ") IS NULL")
                } else {
                    var condition = SQL("(") + text + ") = " + SQL.value(value)
                    if kind == .json {
                        condition.append(SQL(" AND (jsonb_typeof(") + expression + ") = 'number') = " + (drill.numbers[index] ? "true" : "false"))
                    }
                    conditions.append(condition)
                }
            case let .set(set, _):
                let text = Self.groupText(of: set.value, kind: set.kind)
                if value.isEmpty {
                    // No value at all, or an absent one among them (`group` counts it under none).
                    conditions.append(SQL("(NOT EXISTS (SELECT 1") + set.fromWhere(SQL("(") + text + ") IS NOT NULL") + ") OR EXISTS (SELECT 1"
                                      + set.fromWhere(SQL("(") + text + ") IS NULL") + "))")
                } else {
                    var match = SQL("(") + text + ") = " + SQL.value(value)
                    if set.kind == .json {
                        match.append(SQL(" AND (jsonb_typeof(") + set.value + ") = 'number') = " + (drill.numbers[index] ? "true" : "false"))
                    }
                    conditions.append(SQL("EXISTS (SELECT 1") + set.fromWhere(match) + ")")
                }
            }
        }
        return conditions.isEmpty ? "true" : SQL("(") + SQL.joined(conditions, separator: " AND ") + ")"
    }
}
