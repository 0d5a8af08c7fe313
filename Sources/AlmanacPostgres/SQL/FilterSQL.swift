import AlmanacCore

/// A `FilterExpression` as a `WHERE` condition over the table aliased `t`.
///
/// Conditions may be NULL where SQL's three-valued logic allows it, which a `WHERE` reads as
/// false; `not` is written `IS NOT TRUE`, so NULL is false there too. A field with several
/// values (an array, a JSON path) matches when any value does; `!=` and `!~` match when none
/// does, so rows without the field match them, as in memory.
struct FilterSQL {
    let schema: TableSchema
    /// near's distance, rounded as shown: what `filter distance < 10` compares after a near.
    var distance: SQL?
    let types: ColumnTypes

    /// Unknown fields, and numbers compared with words, are errors before anything runs.
    func validate(_ expression: FilterExpression) throws {
        switch expression {
        case let .and(left, right), let .or(left, right):
            try validate(left)
            try validate(right)
        case let .not(inner):
            try validate(inner)
        case let .comparison(field, op, value) where distance != nil && field.lowercased() == NearQuery.column:
            try ComputedColumn.validate(op, value, field: field)
        case let .computed(expression):
            _ = try ExpressionSQL(schema: schema, types: types, stepDistance: distance).bindCondition(expression)
        case let .comparison(field, op, value):
            let reference = try FieldReference.resolve(field, in: schema)
            if op != .contains, op != .notContains, let type = reference.numericDescription,
               Double(value) == nil, value.lowercased() != "null" {
                throw QueryError.typeMismatch(field: field, type: type, message: "'\(value)' is not a number")
            }
        }
    }

    func condition(_ expression: FilterExpression, aliases: inout Aliases) throws -> SQL {
        switch expression {
        case let .and(left, right):
            return SQL("(") + (try condition(left, aliases: &aliases)) + " AND " + (try condition(right, aliases: &aliases)) + ")"
        case let .or(left, right):
            return SQL("(") + (try condition(left, aliases: &aliases)) + " OR " + (try condition(right, aliases: &aliases)) + ")"
        case let .not(inner):
            return SQL("((") + (try condition(inner, aliases: &aliases)) + ") IS NOT TRUE)"
        case let .comparison(field, op, value) where distance != nil && field.lowercased() == NearQuery.column:
            // A row without a distance meets no condition on it, as in memory.
            let comparison = Comparison(op: op, value: value, folding: schema.folding)
            let test = comparison.on(distance!, kind: .number, typeName: "numeric")
            if op == .notEqual { return SQL("(") + distance! + " IS NOT NULL AND (" + test + ") IS NOT TRUE)" }
            return SQL("(") + test + " IS TRUE)"
        case let .computed(expression):
            let sql = ExpressionSQL(schema: schema, types: types, stepDistance: distance)
            return try sql.condition(try sql.bindCondition(expression), aliases: &aliases)
        case let .comparison(field, op, value):
            let reference = try FieldReference.resolve(field, in: schema)
            let comparison = Comparison(op: op, value: value, folding: schema.folding)
            // An object compares by its name, as memory compares it (`Dataset.forEachComparedValue`).
            let any = anyValue(reference.comparedSource(aliases: &aliases), matches: comparison)
            return op == .notEqual || op == .notContains ? SQL("((") + any + ") IS NOT TRUE)" : any
        }
    }

    /// Whether any of the field's values satisfies the comparison; a field that is NULL is
    /// the value null.
    func anyValue(_ source: ValueSource, matches comparison: Comparison) -> SQL {
        switch source {
        case let .scalar(column, kind, typeName):
            let test = comparison.on(column, kind: kind, typeName: typeName)
            return comparison.matchesNull ? SQL("(") + column + " IS NULL OR " + test + ")" : test
        case let .set(values, column):
            var test = comparison.on(values.value, kind: values.kind, typeName: values.typeName)
            if comparison.matchesNull, values.kind != .json { test = SQL("(") + values.value + " IS NULL OR " + test + ")" }
            let exists = SQL("EXISTS (SELECT 1") + values.fromWhere(test) + ")"
            return comparison.matchesNull ? SQL("(") + column + " IS NULL OR " + exists + ")" : exists
        }
    }

    // MARK: - search

    /// `search TEXT`: every word is in the name or in another name field (`Layout`), folded.
    /// A pg_trgm index on a text column is used through `ILIKE` (which ignores case but not
    /// accents).
    func searchCondition(_ text: String, aliases: inout Aliases) -> SQL {
        let words = Self.words(text)
        guard !words.isEmpty, schema.nameColumn != nil else { return "false" }
        let others = schema.layout.otherNameFields.compactMap { try? FieldReference.resolve($0, in: schema) }
        let conditions = words.map { word -> SQL in
            var places = [inName(word)]
            for other in others {
                if other.path.isEmpty, !other.column.isArray, let index = schema.column(named: other.column.name),
                   schema.trigramIndexed.contains(index) {
                    places.append(SQL("t.\(other.column.quoted) ILIKE ") + SQL.value("%" + Self.escapeLike(word) + "%"))
                } else {
                    places.append(anyValue(other.source(aliases: &aliases), matches: Comparison(op: .contains, value: word, folding: schema.folding)))
                }
            }
            return places.count == 1 ? places[0] : SQL("(") + SQL.joined(places, separator: " OR ") + ")"
        }
        return SQL("(") + SQL.joined(conditions, separator: " AND ") + ")"
    }

    /// How well a row matched, best first: the whole name, its beginning, every word in the
    /// name, words only in other names.
    func searchRank(_ text: String) -> SQL {
        guard let name = schema.nameColumn else { return "0" }
        let column = schema.columns[name]
        let folded = schema.folding.fold(QueryBuilder.nameText(column))
        let phrase = SQL("(SELECT ") + schema.folding.fold(SQL.value(text)) + ")"
        let inName = SQL.joined(Self.words(text).map(inName), separator: " AND ")
        return SQL("CASE WHEN ") + folded + " = " + phrase + " THEN 0 WHEN starts_with(" + folded + ", " + phrase + ") THEN 1 WHEN "
            + inName + " THEN 2 ELSE 3 END"
    }

    /// Whether the name contains `word`.
    private func inName(_ word: String) -> SQL {
        guard let name = schema.nameColumn else { return "false" }
        let column = schema.columns[name]
        let nameText = QueryBuilder.nameText(column)
        if schema.trigramIndexed.contains(name) {
            return nameText + " ILIKE " + SQL.value("%" + Self.escapeLike(word) + "%")
        }
        return SQL("strpos(") + schema.folding.fold(nameText) + ", (SELECT " + schema.folding.fold(SQL.value(word)) + ")) > 0"
    }

    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }

    /// A value as text, as it reads in JSON.
    static func text(of expression: SQL, kind: TableSchema.ValueKind) -> SQL {
        switch kind {
        case .text: expression
        case .number: SQL("(") + expression + ")::text"
        default: SQL("(to_jsonb(") + expression + ") #>> '{}')"
        }
    }

    /// `%`, `_` and `\` taken literally by LIKE.
    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
