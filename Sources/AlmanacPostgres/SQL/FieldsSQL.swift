import AlmanacCore

/// `fields` in SQL: how many rows have each column (and each key of a JSON column's objects),
/// and an example value.
extension QueryBuilder {
    /// The keys of a JSON column's objects in its first rows (as the generic model samples a
    /// file), in order of first appearance.
    func jsonKeys(of column: TableSchema.Column) -> SQL {
        let value = SQL("t." + column.quoted + "::jsonb")
        return SQL("SELECT k FROM (SELECT k, min(o) AS first FROM (SELECT ") + value + " AS j, row_number() OVER () AS o FROM \(table) WHERE jsonb_typeof("
            + value + ") = 'object' LIMIT \(GenericModel.sampleSize)) AS s CROSS JOIN LATERAL jsonb_object_keys(s.j) AS k GROUP BY k) AS keyed ORDER BY first, k"
    }

    /// For each field, in order: rows with a value (not NULL, not JSON null, not a word for
    /// none) and the first
    /// value found, as text — one row, two columns per field.
    func fieldCounts(_ fields: [(column: TableSchema.Column, key: String?)]) -> SQL {
        var parts: [SQL] = []
        var examples: [SQL] = []
        for field in fields {
            let value: SQL
            let kind: TableSchema.ValueKind
            if let key = field.key {
                value = SQL("(t." + field.column.quoted + "::jsonb -> ") + SQL.value(key) + ")"
                kind = .json
            } else {
                // A json column is read as jsonb, as its keys are (jsonb_typeof takes no json).
                value = SQL("t." + field.column.quoted + (field.column.kind == .json && !field.column.isArray ? "::jsonb" : ""))
                kind = field.column.isArray ? .other : field.column.kind
            }
            // As in memory: null, the words for none (`n/a`, "") and an empty list are no value;
            // a list is there when one of its elements is.
            let present: SQL = switch kind {
            case .json:
                SQL("CASE WHEN jsonb_typeof(") + value + ") = 'null' OR " + value + " = '[]'::jsonb OR (jsonb_typeof(" + value + ") = 'string' AND "
                    + Self.present(SQL("(") + value + " #>> '{}')") + " IS NULL) THEN NULL ELSE " + value + " END"
            case .text: Self.present(value)
            case .other where field.column.isArray:
                SQL("CASE WHEN EXISTS (SELECT 1 FROM unnest(") + value + ") AS e WHERE " + Self.present(SQL("e::text")) + " IS NOT NULL) THEN "
                    + value + " END"
            default: value
            }
            parts.append(SQL("count(") + present + ")::text")
            examples.append(SQL("(SELECT ") + Self.exampleText(present, kind: kind) + " FROM \(table) WHERE " + present + " IS NOT NULL LIMIT 1)")
        }
        return SQL("SELECT ") + SQL.joined(parts, separator: ", ") + ", " + SQL.joined(examples, separator: ", ") + " FROM \(table)"
    }

    /// A value as `fields` shows an example: scalars as almanac writes them, the rest as JSON.
    static func exampleText(_ value: SQL, kind: TableSchema.ValueKind) -> SQL {
        switch kind {
        case .json: return SQL("CASE jsonb_typeof(") + value + ") WHEN 'object' THEN " + objectText(of: value) + " WHEN 'array' THEN " + value
            + "::text ELSE " + text(of: value, kind: .json) + " END"
        case .other: return SQL("(to_jsonb(") + value + ") #>> '{}')"
        default: return text(of: value, kind: kind)
        }
    }
}

/// How `fields` types a table's fields in memory's words (`FieldCatalog.Field.typeDescription`):
/// every value of each field read as memory's inference reads it, and counted.
extension QueryBuilder {
    /// Rows of (field's position, whether its values sit in lists, reading, how many values):
    /// each value (each element of a list) read as `number`, `numeric text`, `date`, `text`,
    /// `boolean`, `object`, `list` (a list in a list) or `null` (JSON's); NULL for a word for
    /// none, and for an empty list (which still tells the field holds lists). Read from the
    /// first `typedRows` rows, once: a table that small is typed exactly as memory types it, a
    /// bigger one in a moment rather than a pass over every row per field (2 million rows: 44 s).
    func fieldReadings(_ fields: [(column: TableSchema.Column, key: String?)]) -> SQL {
        let table = "typed AS t"
        let parts = fields.enumerated().map { index, field -> SQL in
            let column = SQL("t." + field.column.quoted)
            if field.key != nil || (field.column.kind == .json && !field.column.isArray) {
                let value = field.key.map { SQL("(") + column + "::jsonb -> " + SQL.value($0) + ")" } ?? SQL("(") + column + "::jsonb)"
                return SQL("SELECT \(index), jsonb_typeof(") + value + ") = 'array', " + Self.reading(ofJSON: SQL("e")) + " FROM \(table) LEFT JOIN LATERAL "
                    + "jsonb_array_elements(CASE WHEN jsonb_typeof(" + value + ") = 'array' THEN " + value + " ELSE jsonb_build_array(" + value
                    + ") END) AS e ON true WHERE " + value + " IS NOT NULL"
            }
            if field.column.isArray {
                // A NULL element is a list's null, as JSON writes it; an empty list has no element at all.
                return SQL("SELECT \(index), true, CASE WHEN u.o IS NOT NULL THEN coalesce(") + Self.reading(of: SQL("u.e"), column: field.column)
                    + ", CASE WHEN u.e IS NULL THEN 'null' END) END FROM \(table) LEFT JOIN LATERAL unnest(" + column
                    + ") WITH ORDINALITY AS u(e, o) ON true WHERE " + column + " IS NOT NULL"
            }
            return SQL("SELECT \(index), false, ") + Self.reading(of: column, column: field.column) + " FROM \(table) WHERE " + column + " IS NOT NULL"
        }
        return SQL("WITH typed AS MATERIALIZED (SELECT * FROM \(schema.quotedName) LIMIT \(Self.typedRows)) SELECT p, l, r, count(*)::text FROM (")
            + SQL.joined(parts, separator: " UNION ALL ") + ") AS v(p, l, r) GROUP BY 1, 2, 3"
    }

    static let typedRows = 10_000

    /// A value of `column`'s kind (an element's, for a list) as memory reads it.
    static func reading(of value: SQL, column: TableSchema.Column) -> SQL {
        SQL("CASE WHEN ") + value + " IS NOT NULL THEN " + knownReading(of: value, column: column) + " END"
    }

    private static func knownReading(of value: SQL, column: TableSchema.Column) -> SQL {
        switch column.kind {
        case .number: return "'number'"
        case .boolean: return "'boolean'"
        case .json: return reading(ofJSON: SQL("to_jsonb(") + value + ")")
        case .text: return reading(ofText: value)
        // JSON gives a date or a timestamp as ISO text, which memory reads as a date.
        case .other: return isDate(column.typeName) ? "'date'" : reading(ofText: text(of: value, kind: .other))
        }
    }

    static func reading(ofJSON value: SQL) -> SQL {
        SQL("CASE jsonb_typeof(") + value + ") WHEN 'string' THEN " + reading(ofText: SQL("(") + value + " #>> '{}')")
            + " WHEN 'number' THEN 'number' WHEN 'boolean' THEN 'boolean' WHEN 'object' THEN 'object' WHEN 'array' THEN 'list'"
            + " WHEN 'null' THEN 'null' END"
    }

    /// Text as `TextReading` reads it: a date, a number, or words; NULL for a word for none.
    static func reading(ofText text: SQL) -> SQL {
        SQL("CASE WHEN ") + present(text) + " IS NULL THEN NULL WHEN " + ExpressionSQL.epoch(ofText: text) + " IS NOT NULL THEN 'date' WHEN "
            + number(of: text, kind: .text) + " IS NOT NULL THEN 'numeric text' ELSE 'text' END"
    }
}
