import AlmanacCore

/// `within` in SQL, as `AreaShape.contains` decides it: the outline's box on the row's
/// coordinates; then per polygon whose box holds the point, the edges of the point's band
/// (slices of arrays bound as parameters), each crossing counted when it is half-open in
/// latitude around the point and east of it, inside when the count is odd — in the same
/// float8 arithmetic, so the rows are memory's.
extension QueryBuilder {
    func withinCondition(_ inside: WithinQuery) throws -> SQL {
        let (latitude, longitude) = try coordinates(inside.coordinates)
        let box = inside.box
        let columns = inside.columns
        func number(_ value: Double) -> SQL { SQL.value(String(value), as: "float8") }
        func array(_ values: [Double]) -> SQL { SQL.value("{" + values.map { String($0) }.joined(separator: ",") + "}", as: "float8[]") }
        // 1-based, as PostgreSQL's arrays count.
        func positions(_ values: [Int]) -> SQL { SQL.value("{" + values.map { String($0 + 1) }.joined(separator: ",") + "}", as: "int8[]") }
        func integers(_ values: [Int]) -> SQL { SQL.value("{" + values.map(String.init).joined(separator: ",") + "}", as: "int8[]") }
        func slice(_ values: [Double]) -> SQL { SQL("(") + array(values) + ")[k.first:k.last]" }
        var sql = SQL("(") + latitude + " BETWEEN " + number(max(-90, box.south)) + " AND " + number(min(90, box.north))
            + " AND " + longitude + " BETWEEN " + number(max(-180, box.west)) + " AND " + number(min(180, box.east))
        sql.append(SQL(" AND EXISTS (SELECT 1 FROM (SELECT ") + latitude + " AS y, " + longitude + " AS x OFFSET 0) AS p CROSS JOIN unnest(")
        sql.append(SQL.joined([array(columns.south), array(columns.north), array(columns.west), array(columns.east),
                               array(columns.bandHeight), integers(columns.bands), positions(columns.firstBand)],
                              separator: ", "))
        sql.append(") AS b(south, north, west, east, height, bands, first)"
            + " CROSS JOIN LATERAL (SELECT b.first + least(b.bands - 1, greatest(0, trunc((p.y - b.south) / b.height)))::int8 AS band) AS n"
            + " CROSS JOIN LATERAL (SELECT s[n.band] AS first, s[n.band + 1] - 1 AS last FROM (SELECT ")
        sql.append(positions(columns.bandStarts))
        sql.append(" AS s) AS a) AS k WHERE p.y BETWEEN b.south AND b.north AND p.x BETWEEN b.west AND b.east AND (SELECT count(*) FROM unnest(")
        sql.append(SQL.joined([slice(columns.x1), slice(columns.y1), slice(columns.x2), slice(columns.y2)], separator: ", "))
        sql.append(") AS e(x1, y1, x2, y2) WHERE (e.y1 > p.y) <> (e.y2 > p.y) AND p.x < e.x1 + (p.y - e.y1) * (e.x2 - e.x1) / (e.y2 - e.y1)) % 2 = 1))")
        return sql
    }
}
