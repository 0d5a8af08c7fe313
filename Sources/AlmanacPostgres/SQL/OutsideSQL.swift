import AlmanacCore

/// `outside` in SQL: per country name of the row (a `CASE` over the names, each bound), its
/// point not inside that country's outline (`within`'s ray cast, negated), and the distance to
/// the outline as `AreaShape.kilometres(to:)` measures it — the angle to the nearest edge's
/// great-circle arc over the edge vectors bound as arrays, in the same float8 arithmetic.
extension QueryBuilder {
    /// The row's country name as text.
    private func countryTitle(_ outside: OutsideQuery) throws -> SQL { try singleText(outside.field, what: "outside reads one country name") }

    /// Judged (a country with an outline, a point in range) and outside that outline.
    func outsideCondition(_ outside: OutsideQuery) throws -> SQL {
        guard !outside.countries.isEmpty else { return SQL("false") }
        let (latitude, longitude) = try coordinates(outside.coordinates)
        var sql = SQL("(") + latitude + " BETWEEN -90 AND 90 AND " + longitude + " BETWEEN -180 AND 180 AND CASE " + (try countryTitle(outside))
        for country in outside.countries {
            sql.append(" WHEN ")
            sql.bind(country.title)
            sql.append(SQL(" THEN NOT ") + (try withinCondition(country.inside)))
        }
        sql.append(" ELSE false END)")
        return sql
    }

    /// Kilometres from the row's point to its country's outline, rounded as memory rounds.
    func outsideDistance(_ outside: OutsideQuery) throws -> SQL {
        let (latitude, longitude) = try coordinates(outside.coordinates)
        var sql = SQL("round((CASE ") + (try countryTitle(outside))
        for country in outside.countries {
            sql.append(" WHEN ")
            sql.bind(country.title)
            sql.append(SQL(" THEN ") + kilometres(to: country.edges, latitude: latitude, longitude: longitude))
        }
        sql.append(" END)::numeric, 1)")
        return sql
    }

    /// `AreaShape.kilometres(to:)` for a point outside: the least angle to an edge's arc (across
    /// to its great circle when the foot falls between its ends, else to the nearer end). The
    /// point is computed once (`OFFSET 0` keeps the planner from copying its expression, which
    /// reads a JSON column, into every use over every edge).
    private func kilometres(to edges: AreaEdgeVectors, latitude: SQL, longitude: SQL) -> SQL {
        func array(_ values: [Double]) -> SQL { SQL.value("{" + values.map { String($0) }.joined(separator: ",") + "}", as: "float8[]") }
        func number(_ value: Double) -> SQL { SQL.value(String(value), as: "float8") }
        typealias Vector = (x: String, y: String, z: String)
        func cross(_ a: Vector, _ b: Vector) -> Vector {
            ("(\(a.y) * \(b.z) - \(a.z) * \(b.y))", "(\(a.z) * \(b.x) - \(a.x) * \(b.z))", "(\(a.x) * \(b.y) - \(a.y) * \(b.x))")
        }
        func dot(_ a: Vector, _ b: Vector) -> String { "(\(a.x) * \(b.x) + \(a.y) * \(b.y) + \(a.z) * \(b.z))" }
        func length(_ a: Vector) -> String { "sqrt(\(dot(a, a)))" }
        func angle(_ a: Vector, _ b: Vector) -> String { "atan2(\(length(cross(a, b))), \(dot(a, b)))" }
        let p: Vector = ("p.x", "p.y", "p.z")
        let a: Vector = ("e.ax", "e.ay", "e.az"), b: Vector = ("e.bx", "e.by", "e.bz")
        let normal: Vector = ("e.nx", "e.ny", "e.nz"), unit: Vector = ("e.ux", "e.uy", "e.uz")
        let foot: Vector = ("f.x", "f.y", "f.z")
        // Each edge's own values once (`OFFSET 0`: else the planner copies them into every use).
        var sql = SQL("((SELECT min(CASE WHEN e.size > ") + number(AreaShape.shortNormal) + " AND " + dot(cross(a, foot), normal)
            + " >= 0 AND " + dot(cross(foot, b), normal) + " >= 0 THEN least(c.ends, asin(least(1::float8, abs(c.across)))) ELSE c.ends END)"
            + " FROM (SELECT cos(g.phi) * cos(g.lambda) AS x, cos(g.phi) * sin(g.lambda) AS y, sin(g.phi) AS z FROM (SELECT "
            + latitude + " * " + number(Haversine.radians) + " AS phi, " + longitude + " * " + number(Haversine.radians)
            + " AS lambda) AS g OFFSET 0) AS p CROSS JOIN unnest("
        sql.append(SQL.joined(edges.columns.map(array), separator: ", "))
        sql.append(") AS e(ax, ay, az, bx, by, bz, nx, ny, nz, size, ux, uy, uz) CROSS JOIN LATERAL (SELECT " + dot(p, unit)
            + " AS across, least(\(angle(p, a)), \(angle(p, b))) AS ends OFFSET 0) AS c CROSS JOIN LATERAL (SELECT p.x - c.across * e.ux AS x,"
            + " p.y - c.across * e.uy AS y, p.z - c.across * e.uz AS z OFFSET 0) AS f) * ")
        sql.append(number(Haversine.earthRadius) + ")")
        return sql
    }
}
