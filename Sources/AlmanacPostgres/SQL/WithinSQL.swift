import AlmanacCore

/// `within` in SQL: the outline's box on the row's coordinates, then per polygon whose box
/// holds the point the ray cast of `AreaShape.contains` — edges half-open in latitude, a
/// crossing counted when the point lies west of it, inside when the count is odd — over the
/// edges bound as float8[] arrays, in the same float8 arithmetic, so the answer is memory's.
extension QueryBuilder {
    func withinCondition(_ inside: WithinQuery) throws -> SQL {
        let (latitude, longitude) = try coordinates(inside.coordinates)
        let box = inside.box
        func number(_ value: Double) -> SQL { SQL.value(String(value), as: "float8") }
        func array(_ values: [Double]) -> SQL { SQL.value("{" + values.map { String($0) }.joined(separator: ",") + "}", as: "float8[]") }
        var sql = SQL("(") + latitude + " BETWEEN " + number(max(-90, box.south)) + " AND " + number(min(90, box.north))
            + " AND " + longitude + " BETWEEN " + number(max(-180, box.west)) + " AND " + number(min(180, box.east))
        sql.append(SQL(" AND EXISTS (SELECT 1 FROM (SELECT ") + latitude + " AS y, " + longitude + " AS x) AS p CROSS JOIN unnest(")
        sql.append(SQL.joined([array(inside.boxes.map(\.south)), array(inside.boxes.map(\.north)), array(inside.boxes.map(\.west)),
                               array(inside.boxes.map(\.east))], separator: ", "))
        sql.append(") WITH ORDINALITY AS b(south, north, west, east, polygon)"
            + " WHERE p.y BETWEEN b.south AND b.north AND p.x BETWEEN b.west AND b.east AND (SELECT count(*) FROM unnest(")
        sql.bind("{" + inside.polygon.map { String($0 + 1) }.joined(separator: ",") + "}", as: "int8[]")
        sql.append(", ")
        sql.append(SQL.joined([array(inside.x1), array(inside.y1), array(inside.x2), array(inside.y2)], separator: ", "))
        sql.append(") AS e(polygon, x1, y1, x2, y2) WHERE e.polygon = b.polygon AND (e.y1 > p.y) <> (e.y2 > p.y)"
            + " AND p.x < e.x1 + (p.y - e.y1) * (e.x2 - e.x1) / (e.y2 - e.y1)) % 2 = 1))")
        return sql
    }
}
