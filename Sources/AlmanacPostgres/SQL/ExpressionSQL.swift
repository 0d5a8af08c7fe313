import AlmanacCore

/// An expression as SQL over the table aliased `t`, with memory's meaning: numbers and dates
/// as float8 (dates as seconds since 1970, UTC), so `/` is real division even of integer
/// columns; division by zero and absent operands give NULL; the words for none read as NULL;
/// text compares folded; a comparison over a list is `EXISTS` over its elements. Every literal
/// is a bound parameter. What cannot be translated says so — rows are never fetched instead.
struct ExpressionSQL {
    let schema: TableSchema
    let types: ColumnTypes
    /// The distance a near, an outside or a reach computes (`distance`, a number like a field).
    var stepDistance: SQL? = nil

    var folding: TextFolding { schema.folding }

    func bind(_ expression: Expression) throws -> BoundExpression { try ExpressionBinder(TableFields(self)).bind(expression) }
    func bindCondition(_ expression: Expression) throws -> BoundExpression { try ExpressionBinder(TableFields(self)).bindCondition(expression) }

    /// Inside a list's `EXISTS` or count: the list's field reads as its element.
    struct Element {
        let field: String
        let value: SQL
    }

    /// A condition (true, or false/NULL).
    func condition(_ bound: BoundExpression, aliases: inout Aliases) throws -> SQL {
        try value(bound, aliases: &aliases, element: nil)
    }

    /// A scalar value a listing, sort or group shows: a condition there is true or false, never
    /// NULL, as in memory (`gini > 40` is false where gini is missing; a filter reads both alike).
    func shownValue(_ bound: BoundExpression, aliases: inout Aliases) throws -> SQL {
        let sql = try value(bound, aliases: &aliases, element: nil)
        switch bound.kind {
        case .comparison, .match, .legacy, .and, .or: return SQL("COALESCE(") + sql + ", false)"
        default: return sql
        }
    }

    /// The value of a scalar expression (a list's first value where one value is wanted).
    func value(_ bound: BoundExpression, aliases: inout Aliases, element: Element?) throws -> SQL {
        if bound.type.isList, element == nil, !isReduction(bound) {
            // One value of a list: its first, as sort and group read a list in memory.
            let (set, inner) = try listElement(bound, aliases: &aliases)
            return set.first(of: try value(bound, aliases: &aliases, element: inner))
        }
        switch bound.kind {
        case let .number(number):
            return SQL.value(Comparison.numberText(number), as: "float8")
        case let .text(text):
            return SQL.value(text)
        case let .boolean(flag):
            return SQL.value(flag ? "true" : "false", as: "boolean")
        case .null:
            return "NULL"
        case let .field(name, container):
            if let stepDistance, name == NearQuery.column { return SQL("(") + stepDistance + ")::float8" }
            if let element, element.field == name { return element.value }
            if container { throw untranslatable(bound, "an object") }
            return try scalarField(name, type: bound.type.element, aliases: &aliases)
        case .linked:
            throw untranslatable(bound, "a path across links")
        case let .negate(inner):
            return SQL("(-") + (try value(inner, aliases: &aliases, element: element)) + ")"
        case let .arithmetic(op, left, right):
            let a = try value(left, aliases: &aliases, element: element)
            let b = try value(right, aliases: &aliases, element: element)
            let day = String(Int(CalendarDate.secondsPerDay))
            switch op {
            case .concatenate: return SQL("(") + a + " || " + b + ")"
            case .add:
                if left.type.element == .date, right.type.element != .date { return SQL("(") + a + " + " + b + " * \(day))" }
                if right.type.element == .date, left.type.element != .date { return SQL("(") + a + " * \(day) + " + b + ")" }
                return finite(op, a, b, of: (left, right), aliases: &aliases)
            case .subtract:
                if left.type.element == .date, right.type.element == .date { return SQL("((") + a + " - " + b + ") / \(day))" }
                if left.type.element == .date { return SQL("(") + a + " - " + b + " * \(day))" }
                return finite(op, a, b, of: (left, right), aliases: &aliases)
            case .multiply, .divide: return finite(op, a, b, of: (left, right), aliases: &aliases)
            // Of the numbers as written (their shortest decimals, float8's text), as memory
            // computes it (ExpressionEvaluator.remainder): 7.3 % 0.1 is 0.
            case .remainder: return SQL("((") + a + ")::text::numeric % NULLIF((" + b + ")::text::numeric, 0))::float8"
            }
        case let .comparison(op, left, right):
            if left.type.isList, element == nil { return try exists(bound, list: left, aliases: &aliases) }
            let a = try value(left, aliases: &aliases, element: element)
            let b = try value(right, aliases: &aliases, element: element)
            switch left.type.element {
            case .text, .null:
                let (x, y) = (folding.fold(a), folding.fold(b))
                switch op {
                case .equal: return SQL("(") + x + " = " + y + ")"
                case .contains: return SQL("(strpos(") + x + ", " + y + ") > 0)"
                default: return SQL("((") + x + " COLLATE \"C\") \(op.rawValue) " + y + ")"
                }
            default:
                return SQL("(") + a + " \(op.rawValue) " + b + ")"
            }
        case let .match(inner, _, pattern):
            if inner.type.isList, element == nil { return try exists(bound, list: inner, aliases: &aliases) }
            return SQL("(") + (try value(inner, aliases: &aliases, element: element)) + " ~ " + SQL.value(try RegexSQL.pattern(pattern)) + ")"
        case let .legacy(field, op, text):
            return try FilterSQL(schema: schema, types: types).condition(.comparison(field: field, op: op, value: text), aliases: &aliases)
        case let .isNull(inner, negated):
            let present: SQL
            if case let .field(name, true) = inner.kind {
                present = try objectPresent(name)
            } else if inner.type.isList, element == nil {
                let (set, item) = try listElement(inner, aliases: &aliases)
                present = SQL("EXISTS (SELECT 1") + set.fromWhere((try value(inner, aliases: &aliases, element: item)) + " IS NOT NULL") + ")"
            } else {
                present = SQL("(") + (try value(inner, aliases: &aliases, element: element)) + " IS NOT NULL)"
            }
            return negated ? present : SQL("(NOT ") + present + ")"
        case let .and(left, right):
            return SQL("(") + (try value(left, aliases: &aliases, element: element)) + " AND " + (try value(right, aliases: &aliases, element: element)) + ")"
        case let .or(left, right):
            return SQL("(") + (try value(left, aliases: &aliases, element: element)) + " OR " + (try value(right, aliases: &aliases, element: element)) + ")"
        case let .not(inner):
            return SQL("((") + (try value(inner, aliases: &aliases, element: element)) + ") IS NOT TRUE)"
        case let .call(function, arguments):
            if function.name == "count" {
                guard let argument = arguments.first else { return "0::float8" }
                guard argument.type.isList else {
                    return SQL("(CASE WHEN ") + (try value(argument, aliases: &aliases, element: element)) + " IS NULL THEN 0 ELSE 1 END)::float8"
                }
                let (set, item) = try listElement(argument, aliases: &aliases)
                return SQL("(SELECT count(") + (try value(argument, aliases: &aliases, element: item)) + ")::float8" + set.fromWhere(nil) + ")"
            }
            guard let template = function.sqlTemplate(arguments: arguments.count), !template.isEmpty else { throw untranslatable(bound, function.name) }
            let parts = try arguments.map { try value($0, aliases: &aliases, element: element) }
            return Self.fill(template, parts)
        case let .cast(inner):
            // A column of numbers written as text, read as text, is its text (`004`), as in memory.
            if case let .field(name, false) = inner.kind, inner.type.element == .number, !inner.type.isList, element?.field != name,
               stepDistance == nil || name != NearQuery.column {
                return try scalarField(name, type: .text, aliases: &aliases)
            }
            let part = try value(inner, aliases: &aliases, element: element)
            switch inner.type.element {
            case .number: return QueryBuilder.numberText(part)
            case .date: return SQL("to_char(to_timestamp(") + part + ") AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
            case .boolean: return SQL("CASE WHEN ") + part + " THEN 'true' WHEN NOT " + part + " THEN 'false' END"
            default: return part
            }
        }
    }

    /// Whether a list-typed node reduces its list itself (count, comparisons, is null).
    private func isReduction(_ bound: BoundExpression) -> Bool {
        switch bound.kind {
        case .comparison, .match, .isNull, .and, .or, .not, .legacy: true
        case let .call(function, _): function.name == "count"
        default: false
        }
    }

    /// `EXISTS` over the list's elements: any element satisfies the comparison.
    private func exists(_ bound: BoundExpression, list: BoundExpression, aliases: inout Aliases) throws -> SQL {
        let (set, item) = try listElement(list, aliases: &aliases)
        return SQL("EXISTS (SELECT 1") + set.fromWhere(try value(bound, aliases: &aliases, element: item)) + ")"
    }

    /// The list field under a list-typed node, as a set of rows, and its element typed.
    func listElement(_ bound: BoundExpression, aliases: inout Aliases) throws -> (ValueSet, Element) {
        guard let field = Self.listField(bound) else { throw untranslatable(bound, "a list") }
        let reference = try FieldReference.resolve(field, in: schema)
        let type = types.type(of: reference).element
        switch reference.source(aliases: &aliases) {
        case let .set(set, _):
            return (set, Element(field: field, value: typed(set.value, kind: set.kind, typeName: set.typeName, as: type)))
        case let .scalar(column, kind, typeName):
            // A one-value source typed as a list: a set of that one value.
            let alias = aliases.next("o")
            let set = ValueSet(from: SQL("(SELECT ") + column + ") AS \(alias)(v)", condition: nil, value: SQL("\(alias).v"), kind: kind,
                               typeName: typeName)
            return (set, Element(field: field, value: typed(set.value, kind: kind, typeName: typeName, as: type)))
        }
    }

    /// The field that makes a node a list (the binder allows one).
    static func listField(_ bound: BoundExpression) -> String? {
        guard bound.type.isList else { return nil }
        switch bound.kind {
        case let .field(name, _): return name
        case let .negate(inner), let .cast(inner), let .match(inner, _, _), let .isNull(inner, _), let .not(inner): return listField(inner)
        case let .arithmetic(_, left, right), let .comparison(_, left, right), let .and(left, right), let .or(left, right):
            return listField(left) ?? listField(right)
        case let .call(_, arguments): return arguments.lazy.compactMap(listField).first
        default: return nil
        }
    }

    /// A field with one value per row, as the type it is bound to.
    private func scalarField(_ name: String, type: ValueType, aliases: inout Aliases) throws -> SQL {
        let reference = try FieldReference.resolve(name, in: schema)
        switch reference.source(aliases: &aliases) {
        case let .scalar(column, kind, typeName):
            return typed(column, kind: kind, typeName: typeName, as: type)
        case let .set(set, _):
            // A JSON path's value: its first.
            return set.first(of: typed(set.value, kind: set.kind, typeName: set.typeName, as: type))
        }
    }

    /// A column's or a JSON value's SQL read as `type`: numbers as float8 (text that reads as
    /// one too), dates as seconds since 1970, text with the words for none as NULL.
    func typed(_ sql: SQL, kind: TableSchema.ValueKind, typeName: String, as type: ValueType) -> SQL {
        switch type {
        case .number:
            if kind == .json {
                return SQL("(CASE jsonb_typeof(") + sql + ") WHEN 'number' THEN (" + sql + ")::numeric WHEN 'string' THEN "
                    + QueryBuilder.number(of: SQL("(") + sql + " #>> '{}')", kind: .text) + " END)::float8"
            }
            // float8, real and integers as they are: through numeric they were slower and
            // lost digits (15 significant).
            if kind == .number, QueryBuilder.isBinaryNumber(typeName) { return typeName == "double precision" ? sql : SQL("(") + sql + ")::float8" }
            return SQL("(") + QueryBuilder.number(of: sql, kind: kind == .number ? .number : .text) + ")::float8"
        case .date:
            if QueryBuilder.isDate(typeName) { return SQL("extract(epoch from ") + sql + ")::float8" }
            let text = kind == .json ? SQL("(") + sql + " #>> '{}')" : sql
            return Self.epoch(ofText: text)
        case .boolean:
            switch kind {
            case .boolean: return sql
            case .json: return SQL("CASE WHEN jsonb_typeof(") + sql + ") = 'boolean' THEN (" + sql + ")::boolean END"
            default: return SQL("CASE lower(") + QueryBuilder.text(of: sql, kind: kind) + ") WHEN 'true' THEN true WHEN 'false' THEN false END"
            }
        default:
            if kind == .json {
                return QueryBuilder.present(SQL("CASE WHEN jsonb_typeof(") + sql + ") <> 'null' THEN " + QueryBuilder.text(of: sql, kind: .json) + " END")
            }
            return QueryBuilder.present(QueryBuilder.text(of: sql, kind: kind))
        }
    }

    /// An ISO 8601 text as seconds since 1970 (a time without an offset is UTC), NULL for other text.
    static func epoch(ofText text: SQL) -> SQL {
        SQL("CASE WHEN ") + text + " ~ '" + ColumnTypes.datePattern + "' THEN extract(epoch from CASE WHEN length(" + text + ") > 10 AND "
            + text + " ~ '(Z|[+-][0-9]{2}:?[0-9]{2})$' THEN (" + text + ")::timestamptz ELSE (" + text
            + ")::timestamp AT TIME ZONE 'UTC' END)::float8 END"
    }

    /// Whether an object field itself is there: not missing, not JSON null, not empty.
    private func objectPresent(_ name: String) throws -> SQL {
        let reference = try FieldReference.resolve(name, in: schema)
        guard reference.column.kind == .json, !reference.column.isArray else {
            throw PostgresError.invalid("'\(name) is null' cannot be translated to SQL here: \(reference.column.name) is no JSON object")
        }
        let node = SQL("(t.\(reference.column.quoted)::jsonb #> ") + SQL.value("{" + reference.path.map(Self.arrayElement).joined(separator: ",") + "}",
                                                                                 as: "text[]") + ")"
        return SQL("(") + node + " IS NOT NULL AND jsonb_typeof(" + node + ") <> 'null' AND " + node + " NOT IN ('{}'::jsonb, '[]'::jsonb, '\"\"'::jsonb))"
    }

    /// A key as an element of a text[] literal: quoted, quotes and backslashes escaped.
    private static func arrayElement(_ key: String) -> String {
        "\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `abs({0})` with the arguments' SQL in place.
    static func fill(_ template: String, _ parts: [SQL]) -> SQL {
        var sql = SQL()
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            sql.append(String(rest[..<open]))
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            if name == "*" {
                sql.append(SQL.joined(parts, separator: ", "))
            } else if let index = Int(name), parts.indices.contains(index) {
                sql.append(SQL("(") + parts[index] + ")")
            }
            rest = rest[rest.index(after: close)...]
        }
        sql.append(String(rest))
        return sql
    }

    private func untranslatable(_ bound: BoundExpression, _ what: String) -> PostgresError {
        PostgresError.invalid("this expression cannot be translated to SQL (\(what) in it): \(schema.name.description) is not read into memory "
            + "to compute it — write it another way, or load the rows")
    }
}

/// The table's fields for the binder: columns and JSON paths, typed by `ColumnTypes`.
struct TableFields: ExpressionCatalog {
    let sql: ExpressionSQL

    init(_ sql: ExpressionSQL) { self.sql = sql }

    func field(_ name: String) -> (name: String, type: ValueType, container: Bool)? {
        if sql.stepDistance != nil, name.lowercased() == NearQuery.column { return (NearQuery.column, .number, false) }
        guard let reference = try? FieldReference.resolve(name, in: sql.schema) else { return nil }
        return (name, sql.types.type(of: reference), sql.types.isContainer(reference))
    }

    func unknownField(_ name: String) -> Error {
        do {
            _ = try FieldReference.resolve(name, in: sql.schema)
            return QueryError.unknownField(name, suggestion: nil)
        } catch {
            return error
        }
    }

    func checkComparison(field: String, op: FilterExpression.Operator, value: String) throws {
        try FilterSQL(schema: sql.schema, types: sql.types).validate(.comparison(field: field, op: op, value: value))
    }
}

extension PostgresTable {
    /// Checks that an expression binds against the table's columns and translates to SQL.
    @discardableResult
    public func checkExpression(_ expression: Expression, in query: TableQuery = TableQuery()) throws -> ValueType {
        let sql = try builder.expressions(for: query)
        var aliases = Aliases()
        let bound = try sql.bind(expression)
        _ = try sql.value(bound, aliases: &aliases, element: nil)
        return bound.type
    }
}

/// A field or a computed spec (`population / area as density`) as where its values come from:
/// what sort, group, drill-down and describe read, whichever it is.
struct SpecSource {
    let source: ValueSource
    /// The column, for a field.
    let reference: FieldReference?
    /// The expression's type, for a computed spec.
    let type: ValueType?
}

extension QueryBuilder {
    /// The spec's values: a field's column or JSON path, or the expression computed in SQL.
    /// `whole`: a path that ends at an object is the object (group, describe and drill-down
    /// count it once, by its name), not its members' values.
    func source(of spec: String, in query: TableQuery, aliases: inout Aliases, reading: FieldReference.Reading = .values) throws -> SpecSource {
        if let expression = computed(spec, in: query) { return try computedSource(expression, in: query, aliases: &aliases) }
        let resolved = try FieldReference.resolve(renamedField(spec) ?? spec, in: schema)
        let source = switch reading {
        case .values: resolved.source(aliases: &aliases)
        case .whole: resolved.wholeSource(aliases: &aliases)
        case .sortKey: resolved.sortSource(aliases: &aliases)
        }
        return SpecSource(source: source, reference: resolved, type: nil)
    }

    /// The expression a spec is, or nil for a column's name or a JSON path (`info.address.city`).
    /// A column named as the whole spec is that column; a dotted path is no expression, unless
    /// it crosses links (`homeworld.population`): then it is computed, typed as memory types it.
    /// The distance a near, an outside or a reach computes is one too, before a column of that name.
    func computed(_ spec: String, in query: TableQuery) -> AlmanacCore.Expression? {
        if query.measures, spec.lowercased() == NearQuery.column { return Expression(.field(NearQuery.column)) }
        guard schema.column(named: spec) == nil, let parsed = try? ComputedField.parse(spec) else { return nil }
        if let field = parsed.expression.fieldName {
            guard (try? FieldReference.resolve(field, in: schema))?.hops.isEmpty == false else { return nil }
        }
        return parsed.expression
    }

    /// The column or JSON path `FIELD as NAME` renames (`area as a`): that field, read as
    /// itself, as memory reads it (`ComputedValues.renamedField`). Nil for anything else.
    func renamedField(_ spec: String) -> String? {
        guard spec.range(of: " as ", options: .caseInsensitive) != nil, schema.column(named: spec) == nil,
              let field = (try? ComputedField.parse(spec))?.expression.fieldName, field != spec,
              (try? FieldReference.resolve(field, in: schema))?.hops.isEmpty == true else { return nil }
        return field
    }

    func computedSource(_ expression: AlmanacCore.Expression, in query: TableQuery, aliases: inout Aliases) throws -> SpecSource {
        let sql = try expressions(for: query)
        let bound = try sql.bind(expression)
        let type = bound.type
        if type.isList {
            let (set, element) = try sql.listElement(bound, aliases: &aliases)
            let value = try sql.value(bound, aliases: &aliases, element: element)
            let (kind, typeName) = Self.kind(of: type.element)
            let shaped = type.element == .date ? SQL("to_timestamp(") + value + ")" : value
            return SpecSource(source: .set(ValueSet(from: set.from, condition: set.condition, value: shaped, kind: kind, typeName: typeName,
                                                    order: set.order),
                                           column: SQL("true")), reference: nil, type: type)
        }
        let value = try sql.shownValue(bound, aliases: &aliases)
        let (kind, typeName) = Self.kind(of: type)
        return SpecSource(source: .scalar(type == .date ? SQL("to_timestamp(") + value + ")" : value, kind: kind, typeName: typeName),
                          reference: nil, type: type)
    }

    /// How the SQL of a computed value is read by the code written for columns: numbers as
    /// double precision, dates as timestamps, text, booleans.
    static func kind(of type: ValueType) -> (TableSchema.ValueKind, String) {
        switch type {
        case .number: (.number, "double precision")
        case .date: (.other, "timestamp with time zone")
        case .boolean: (.boolean, "boolean")
        default: (.text, "text")
        }
    }
}

