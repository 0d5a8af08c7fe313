import AlmanacCore

/// A field as a user names it (`population`, `info.address.city`), resolved against a
/// table's columns: the column, and the keys below it when the column holds JSON.
struct FieldReference {
    let field: String
    let column: TableSchema.Column
    /// Keys into a json/jsonb column; empty for the column itself.
    let path: [String]
    /// The links crossed to reach `column`'s table (`owner_id.name`); empty for this table's own.
    var hops: [LinkHop] = []
    /// The alias of the row the column is read from.
    var alias = "t"

    /// Whether a row may have several values: an array, or a link that leads to several.
    var isMany: Bool { column.isArray || hops.contains { $0.isMany } }

    /// Finds the column: the whole name, else the longest dotted beginning that names a JSON
    /// column, else (with `links`) a path across the links of the table's catalog. Anything
    /// else is an unknown field, with the closest name as a suggestion.
    static func resolve(_ field: String, in schema: TableSchema, links: Bool = true) throws -> FieldReference {
        if let index = schema.column(named: field) { return FieldReference(field: field, column: schema.columns[index], path: []) }
        let parts = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count > 1 {
            for length in stride(from: parts.count - 1, through: 1, by: -1) {
                let head = parts.prefix(length).joined(separator: ".")
                if let index = schema.column(named: head), schema.columns[index].kind == .json {
                    return FieldReference(field: field, column: schema.columns[index], path: Array(parts.dropFirst(length)))
                }
            }
        }
        if links, let linked = try schema.links.resolve(field, from: schema) { return linked }
        throw QueryError.unknownField(field, suggestion: Suggestion.field(field, among: schema.columns.map(\.name),
                                                                          namedBy: [schema.layout.nameField]))
    }

    /// What a comparison with a number needs: `number`, `list of number`; nil when the type
    /// is not known from the catalog (JSON).
    var numericDescription: String? {
        guard path.isEmpty, column.kind == .number else { return nil }
        return isMany ? "list of number" : "number"
    }

    /// Where the field's values come from, for one row of the table aliased `t`.
    func source(aliases: inout Aliases) -> ValueSource {
        if !hops.isEmpty { return linkedSource(aliases: &aliases) }
        let columnSQL = SQL(alias + "." + column.quoted)
        switch (column.kind, column.isArray) {
        case (.json, false):
            return .set(Self.jsonValues(of: columnSQL + "::jsonb", before: SQL(), path: path, aliases: &aliases), column: columnSQL)
        case (.json, true):
            let element = aliases.next("e")
            let from = SQL("unnest(") + columnSQL + ") AS \(element)(x), "
            return .set(Self.jsonValues(of: SQL("\(element).x::jsonb"), before: from, path: path, aliases: &aliases), column: columnSQL)
        case (let kind, true):
            let element = aliases.next("e")
            return .set(ValueSet(from: SQL("unnest(") + columnSQL + ") AS \(element)(v)", condition: nil,
                                 value: SQL("\(element).v"), kind: kind, typeName: column.typeName), column: columnSQL)
        case (let kind, false):
            return .scalar(columnSQL, kind: kind, typeName: column.typeName)
        }
    }

    /// Where the field's whole values come from, for `group`, `describe` and aggregates: as
    /// `source`, but an object the path ends on is one value (its name: `ObjectIdentity`),
    /// not its members' values, as `Dataset.forEachWholeValue` reads it in memory.
    func wholeSource(aliases: inout Aliases) -> ValueSource {
        jsonSource(aliases: &aliases, values: Self.wholeJSONValues)
    }

    /// How a field's values are read: each scalar (`source`), objects whole (`wholeSource`),
    /// or as a sort key (`sortSource`).
    enum Reading { case values, whole, sortKey }

    /// Where a sort key's values come from (the first is the key): as `source`, but an object
    /// the path ends on is its name's text (a milestone by its title) or, nothing naming it,
    /// its JSON text, as `SortKeys` reads it in memory (`ValueText`: an object's text).
    func sortSource(aliases: inout Aliases) -> ValueSource {
        jsonSource(aliases: &aliases, values: Self.sortJSONValues)
    }

    /// Where the values a comparison reads come from (`filter FIELD = VALUE`): as `source`, but
    /// an object the path ends on that a member names is that name (`ObjectIdentity`), as
    /// `Dataset.forEachComparedValue` reads it in memory; one nothing names, its members' values.
    func comparedSource(aliases: inout Aliases) -> ValueSource {
        jsonSource(aliases: &aliases, values: Self.comparedJSONValues)
    }

    /// `source`, with a `json` column's values (or each element's, for a `json[]`) read by
    /// `values` — how an object the path ends on reads is all that differs.
    private func jsonSource(aliases: inout Aliases,
                            values: (SQL, SQL, [String], inout Aliases) -> ValueSet) -> ValueSource {
        if !hops.isEmpty { return linkedSource(aliases: &aliases) }
        let columnSQL = SQL(alias + "." + column.quoted)
        switch (column.kind, column.isArray) {
        case (.json, false):
            return .set(values(columnSQL + "::jsonb", SQL(), path, &aliases), column: columnSQL)
        case (.json, true):
            let element = aliases.next("e")
            let from = SQL("unnest(") + columnSQL + ") AS \(element)(x), "
            return .set(values(SQL("\(element).x::jsonb"), from, path, &aliases), column: columnSQL)
        default:
            return source(aliases: &aliases)
        }
    }

    /// The scalars a comparison reads where the path ends in `json`: a list's elements each
    /// (`lax $[*]`), a named object as its name, anything else walked whole (`strict $.**`).
    private static func comparedJSONValues(of json: SQL, before: SQL, path: [String], aliases: inout Aliases) -> ValueSet {
        let node = aliases.next("n")
        let element = aliases.next("w")
        let named = aliases.next("x")
        let scalar = aliases.next("s")
        var from = before + "jsonb_path_query(" + json + ", "
        from.bind(jsonPath(path), as: "jsonpath")
        // Named in a lateral subquery the planner keeps apart (OFFSET 0), as `wholeJSONValues`.
        from.append(") AS \(node)(v), jsonb_path_query(\(node).v, 'lax $[*]') AS \(element)(j), LATERAL (SELECT ")
        from.append(QueryBuilder.named(SQL("\(element).j"), unnamed: SQL("\(element).j")) + " AS j OFFSET 0) AS \(named), ")
        from.append("jsonb_path_query(\(named).j, 'strict $.**') AS \(scalar)(j)")
        return ValueSet(from: from, condition: SQL("jsonb_typeof(\(scalar).j) NOT IN ('object', 'array')"),
                        value: SQL("\(scalar).j"), kind: .json, typeName: "jsonb")
    }

    /// What the path reaches in `json`, a list's elements each (`lax $[*]`), objects named.
    private static func wholeJSONValues(of json: SQL, before: SQL, path: [String], aliases: inout Aliases) -> ValueSet {
        let node = aliases.next("n")
        let whole = aliases.next("w")
        var from = before + "jsonb_path_query(" + json + ", "
        from.bind(jsonPath(path), as: "jsonpath")
        // Named once per value, in a lateral subquery the planner may not fold into the
        // callers' expressions (OFFSET 0): they repeat the value, and the naming is long (so
        // long that JIT-compiling the copies took a minute).
        let named = aliases.next("x")
        from.append(") AS \(node)(v), jsonb_path_query(\(node).v, 'lax $[*]') AS \(whole)(j), LATERAL (SELECT ")
        from.append(QueryBuilder.named(SQL("\(whole).j")) + " AS j OFFSET 0) AS \(named)")
        return ValueSet(from: from, condition: SQL("jsonb_typeof(\(whole).j) <> 'array'"),
                        value: SQL("\(named).j"), kind: .json, typeName: "jsonb")
    }

    /// The scalars the path reaches in `json`, an object it ends on as its name's text (see
    /// `sortSource`); a list and what it holds walked as `jsonValues` walks them.
    private static func sortJSONValues(of json: SQL, before: SQL, path: [String], aliases: inout Aliases) -> ValueSet {
        let node = aliases.next("n")
        let keyed = aliases.next("x")
        let scalar = aliases.next("s")
        var from = before + "jsonb_path_query(" + json + ", "
        from.bind(jsonPath(path), as: "jsonpath")
        from.append(SQL(") AS \(node)(v), LATERAL (SELECT CASE WHEN jsonb_typeof(\(node).v) = 'object' THEN to_jsonb(")
                    + QueryBuilder.objectText(of: SQL("\(node).v")) + ") ELSE \(node).v END AS j OFFSET 0) AS \(keyed), ")
        from.append("jsonb_path_query(\(keyed).j, 'strict $.**') AS \(scalar)(j)")
        return ValueSet(from: from, condition: SQL("jsonb_typeof(\(scalar).j) NOT IN ('object', 'array')"),
                        value: SQL("\(scalar).j"), kind: .json, typeName: "jsonb")
    }

    /// Every scalar the path reaches in `json` (jsonb): arrays on the way are looked through
    /// (jsonpath's lax mode), and what the path ends on is walked whole (`strict $.**`), as
    /// almanac walks a record's lists and objects in memory.
    private static func jsonValues(of json: SQL, before: SQL, path: [String], aliases: inout Aliases) -> ValueSet {
        let node = aliases.next("n")
        let scalar = aliases.next("s")
        var from = before + "jsonb_path_query(" + json + ", "
        from.bind(jsonPath(path), as: "jsonpath")
        from.append(") AS \(node)(v), jsonb_path_query(\(node).v, 'strict $.**') AS \(scalar)(j)")
        return ValueSet(from: from, condition: SQL("jsonb_typeof(\(scalar).j) NOT IN ('object', 'array')"),
                        value: SQL("\(scalar).j"), kind: .json, typeName: "jsonb")
    }

    /// `lax $."info"."address"`: every key a quoted jsonpath string, so a key is never syntax.
    static func jsonPath(_ keys: [String]) -> String {
        var path = "lax $"
        for key in keys {
            path += ".\""
            for scalar in key.unicodeScalars {
                switch scalar {
                case "\"": path += "\\\""
                case "\\": path += "\\\\"
                case _ where scalar.value < 0x20: path += String(format: "\\u%04x", scalar.value)
                default: path.unicodeScalars.append(scalar)
                }
            }
            path += "\""
        }
        return path
    }
}

/// Where a field's values come from in a row.
enum ValueSource {
    /// One value: the column itself (NULL when the row has none).
    case scalar(SQL, kind: TableSchema.ValueKind, typeName: String)
    /// Several: an array's elements, or the scalars a JSON path reaches. `column` is the
    /// column they come from (NULL when the row has none).
    case set(ValueSet, column: SQL)
}

/// Values as rows of a `FROM` fragment (set-returning functions, implicitly lateral).
struct ValueSet {
    let from: SQL
    /// What the rows must satisfy to be values (JSON: scalars only).
    let condition: SQL?
    /// One value; for `.json`, a jsonb scalar.
    let value: SQL
    let kind: TableSchema.ValueKind
    let typeName: String
    /// The values' order where it means something (a list of keys followed to their records:
    /// `borders.name` in the order of `borders`, as in memory); empty where it is the rows'.
    var order: [SQL] = []

    /// ` ORDER BY …` for an aggregate or a subquery over the values, or nothing.
    var orderBy: SQL { order.isEmpty ? SQL() : SQL(" ORDER BY ") + SQL.joined(order, separator: ", ") }

    /// The first value (in `order`, else the rows'), joined to each row as `ALIAS.k`: how a
    /// list or a path is one value to sort by or aggregate, as memory takes its first.
    func firstValue(joins: inout SQL, aliases: inout Aliases) -> SQL {
        let first = aliases.next("k")
        joins.append(SQL(" LEFT JOIN LATERAL (SELECT ") + value + " AS k" + fromWhere(nil) + orderBy + " LIMIT 1) AS \(first) ON true")
        return SQL("\(first).k")
    }

    /// `value` (an expression of the set's value) for the first of them, as a scalar subquery.
    func first(of value: SQL) -> SQL { SQL("(SELECT ") + value + fromWhere(nil) + orderBy + " LIMIT 1)" }

    /// `FROM … WHERE …` with `extra` added to the condition.
    func fromWhere(_ extra: SQL?) -> SQL {
        var sql = SQL(" FROM ") + from
        let conditions = [condition, extra].compactMap { $0 }
        if !conditions.isEmpty { sql.append(" WHERE "); sql.append(SQL.joined(conditions, separator: " AND ")) }
        return sql
    }
}

/// Table aliases for subqueries, unique within one statement.
struct Aliases {
    private var used = 0

    mutating func next(_ prefix: String) -> String {
        used += 1
        return "\(prefix)\(used)"
    }
}
