import AlmanacCore

/// `show` and TAB in SQL: rows by key, name or other name; names and values by their beginning.
extension QueryBuilder {
    /// The row whose primary key is `identity`, as the key's own type; nil without a
    /// one-column key. An identity that is not of the key's type is no error, just no row.
    func byIdentity(_ identity: String) -> SQL? {
        // The primary key, else the column a file's record would be found by (`id`).
        let index = schema.primaryKey.count == 1 ? schema.primaryKey[0]
            : schema.primaryKey.isEmpty ? schema.layout.identityField.flatMap { schema.column(named: $0) } : nil
        guard let index else { return nil }
        let key = schema.columns[index]
        var sql = SQL("SELECT row_to_json(t.*)::text FROM \(table) WHERE t.\(key.quoted) = ")
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
        let folded = folding.fold(Self.nameText(column))
        let wanted = SQL("(SELECT ") + folding.fold(SQL.value(name)) + ")"
        var sql = SQL("SELECT row_to_json(t.*)::text, count(*) OVER ()\(placeColumn) FROM \(table) WHERE ")
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
        var sql = SQL("SELECT row_to_json(t.*)::text, count(*) OVER ()\(placeColumn) FROM \(table) WHERE (") + SQL.joined(conditions, separator: " OR ") + ")"
        if !schema.naturalOrder.isEmpty { sql.append(" ORDER BY " + schema.naturalOrder.map { "t." + $0 }.joined(separator: ", ")) }
        sql.append(" LIMIT ")
        sql.bind(String(limit), as: "bigint")
        return sql
    }

    /// Where a row is when the table has no key to name it by: its physical place (`ctid`),
    /// the third column of a lookup, which `places` turns into the row's number.
    var placeColumn: String { schema.naturalOrder == ["ctid"] ? ", t.ctid::text" : "" }

    /// The number of each row at `ctids` in the table's own order (1 for the first row), as a
    /// dataset in memory numbers its records: what `show` offers for rows without a key.
    func places(of ctids: [String]) -> SQL {
        var sql = SQL("SELECT s.c::text, s.n FROM (SELECT t.ctid AS c, row_number() OVER (ORDER BY t.ctid) AS n FROM \(table)) AS s")
        sql.append(" WHERE s.c = ANY(")
        sql.bind("{" + ctids.map { "\"\($0)\"" }.joined(separator: ",") + "}", as: "tid[]")
        sql.append(")")
        return sql
    }

    /// Names beginning with `prefix` (folded), for TAB: the first `limit` found.
    func names(startingWith prefix: String, limit: Int) -> SQL? {
        guard let index = schema.nameColumn else { return nil }
        let column = schema.columns[index]
        let name = Self.nameText(column)
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
        // The values a filter compares: an object by its name.
        switch reference.comparedSource(aliases: &aliases) {
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
}
