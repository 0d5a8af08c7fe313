import AlmanacCore

extension PostgresResults {
    /// `reach` as the table's question: the table's codes and border lists read (a table of
    /// countries is small; a bigger one is refused with its size), the graph searched here as
    /// memory searches it, from the row with the country's code — unless the asker found the
    /// countries among the rows it holds.
    func reachQuery(_ spec: ReachSpec, cancellation: Cancellation) throws -> ReachQuery {
        if let reached = spec.reached { return ReachQuery(field: "alpha3Code", codes: reached.codes, distances: reached.borders) }
        for field in ["alpha3Code", "borders"] where (try? table.checkField(field)) == nil {
            throw QueryError.invalid("reach follows the land borders of a table of countries — alpha3Code and a borders list "
                + "of codes — and \(table.name) has no \(field)")
        }
        let rows = try table.count(cancellation: cancellation)
        guard rows <= ReachQuery.rowLimit else {
            throw QueryError.invalid("reach reads the border lists of every row, and \(table.name) has \(rows.grouped) rows (more than "
                + "\(ReachQuery.rowLimit.grouped)) — narrow it to the countries and export FILE, then load that")
        }
        let countries = try table.page(TableQuery(), offset: 0, limit: max(1, rows), cancellation: cancellation).rows
        let codePath = countries.compile(FieldPath("alpha3Code"))
        func code(_ row: Int) -> String { countries.values(of: codePath, row: row).first.map { countries.text(of: $0) } ?? "" }
        guard let start = (0..<countries.count).first(where: { code($0).uppercased() == spec.code.uppercased() }) else {
            throw QueryError.invalid("\(table.name) has no row whose alpha3Code is \(spec.code)")
        }
        let reached = ReachedCountries(from: start, within: spec.borders, in: countries)
        return ReachQuery(field: "alpha3Code", codes: reached.codes, distances: reached.borders)
    }
}
