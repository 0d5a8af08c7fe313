import AlmanacCore

/// `near` in SQL: each row's coordinates as float8 expressions, the haversine distance from the
/// point (its latitude, longitude and the radius bound as parameters), the condition and the
/// distance written into each row's JSON as `distance` (km, one decimal, as in memory).
extension QueryBuilder {
    /// Kilometres from the query's point to the row's coordinates (NULL without coordinates).
    func distance(_ near: NearQuery) throws -> SQL {
        let (latitude, longitude) = try coordinates(near.coordinates)
        func radians(_ degrees: SQL) -> SQL { SQL("radians(") + degrees + ")" }
        let centreLatitude = SQL.value(String(near.latitude), as: "float8")
        let centreLongitude = SQL.value(String(near.longitude), as: "float8")
        let halfLatitude = SQL("sin((") + radians(latitude) + " - " + radians(centreLatitude) + ") / 2)"
        let halfLongitude = SQL("sin((") + radians(longitude) + " - " + radians(centreLongitude) + ") / 2)"
        let a = SQL("power(") + halfLatitude + ", 2) + cos(" + radians(centreLatitude) + ") * cos(" + radians(latitude) + ") * power("
            + halfLongitude + ", 2)"
        // Rows without coordinates, or with some out of range, have no distance (as in memory).
        return SQL("(CASE WHEN ") + latitude + " BETWEEN -90 AND 90 AND " + longitude + " BETWEEN -180 AND 180 THEN 2 * "
            + SQL.value(String(Haversine.earthRadius), as: "float8") + " * asin(sqrt(least(1::float8, greatest(0::float8, " + a + ")))) END)"
    }

    /// Within the radius, and not the row measured from.
    func nearCondition(_ near: NearQuery) throws -> SQL {
        var condition = try distance(near) + " <= " + SQL.value(String(near.kilometres), as: "float8")
        if let key = near.excludedKey, key.count == schema.primaryKey.count, !key.isEmpty {
            let columns = schema.primaryKey.map { schema.columns[$0] }
            condition.append(SQL(" AND (") + columns.map { "t." + $0.quoted }.joined(separator: ", ") + ") IS DISTINCT FROM (")
            condition.append(SQL.joined(zip(columns, key).map { SQL.value($1, as: $0.typeName) }, separator: ", "))
            condition.append(")")
        } else if let record = near.excludedRecord {
            // Without a primary key, the row equal to the one measured from.
            condition.append(SQL(" AND to_jsonb(t) IS DISTINCT FROM ") + SQL.value(record, as: "jsonb"))
        }
        return condition
    }

    /// The distance as the results show it and sort by it: km rounded to one decimal.
    func roundedDistance(_ near: NearQuery) throws -> SQL { SQL("round((") + (try distance(near)) + ")::numeric, 1)" }

    /// The distance a `near`, an `outside` or a `reach` computes, as the results show it (nil for others).
    func computedDistance(_ query: TableQuery) throws -> SQL? {
        if let near = query.near { return try roundedDistance(near) }
        if let reach = query.reach { return try reachDistance(reach) }
        return try query.outside.map(outsideDistance)
    }

    /// The row as JSON, with the distance as its last member when the query computes one.
    func rowJSON(_ query: TableQuery) throws -> SQL {
        guard let distance = try computedDistance(query) else { return SQL("row_to_json(t.*)::text") }
        return SQL("(left(row_to_json(t.*)::text, -1) || ',\"\(NearQuery.column)\":' || ") + distance + "::text || '}')"
    }

    /// A field's values as float8: a number column, a number in a JSON column, or text that
    /// reads as a number.
    private func number(_ field: String, element: Int? = nil) throws -> SQL {
        let reference = try FieldReference.resolve(field, in: schema)
        let column = SQL("t." + reference.column.quoted)
        switch reference.column.kind {
        case .json:
            var json = SQL("jsonb_extract_path(") + column + "::jsonb"
            for key in reference.path { json.append(", "); json.bind(key) }
            json.append(")")
            if let element { json = SQL("(") + json + " -> \(element))" }
            return SQL("(CASE WHEN jsonb_typeof(") + json + ") = 'number' THEN (" + json + ")::float8 END)"
        case .number where reference.path.isEmpty:
            return element.map { SQL("(") + column + ")[\($0 + 1)]::float8" } ?? SQL("(") + column + ")::float8"
        case .text where reference.path.isEmpty && element == nil:
            return SQL("(") + Self.number(of: column, kind: .text) + ")::float8"
        default:
            throw QueryError.invalid("\(field) holds no numbers near can read as coordinates")
        }
    }

    /// A field's one value per row as text (outside's country name, reach's code); `what` says
    /// who reads it when the field holds lists.
    func singleText(_ field: String, what: String) throws -> SQL {
        var aliases = Aliases()
        guard case let .scalar(column, kind, _) = try FieldReference.resolve(field, in: schema).source(aliases: &aliases) else {
            throw QueryError.invalid("\(what) per row from \(field), and it holds lists")
        }
        return Self.text(of: column, kind: kind)
    }

    func coordinates(_ coordinates: NearQuery.Coordinates) throws -> (SQL, SQL) {
        switch coordinates {
        case let .fields(latitude, longitude): return (try number(latitude), try number(longitude))
        case let .pair(field): return (try number(field, element: 0), try number(field, element: 1))
        }
    }
}
