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
                value = SQL("t." + field.column.quoted)
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
