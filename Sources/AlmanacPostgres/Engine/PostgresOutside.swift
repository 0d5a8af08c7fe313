import AlmanacCore

extension PostgresResults {
    /// `outside` as the table's question: its coordinates found as `near` finds them, the
    /// different country names of `spec.field` (a `GROUP BY`, bounded), each resolved to its
    /// outline here as memory resolves it; names without one are not judged.
    func outsideQuery(_ spec: OutsideSpec, cancellation: Cancellation) throws -> OutsideQuery {
        let coordinates = try coordinateFields(for: "outside", cancellation: cancellation)
        let limit = OutsideQuery.countryLimit
        let titles = try table.valueCounts(TableQuery(), of: spec.field, prefix: "", limit: limit + 1, cancellation: cancellation)
        guard titles.count <= limit else {
            throw QueryError.invalid("outside binds the outline of each country \(spec.field) names, and \(table.name) names more than "
                + "\(limit.grouped) different ones — narrow it and export FILE, then load that")
        }
        var countries: [OutsideQuery.Country] = []
        for title in titles.map(\.value).sorted() {
            guard case let .outline(_, outline) = spec.resolve(title) else { continue }
            let area = spec.areas.areas[outline]
            countries.append(OutsideQuery.Country(title: title, inside: WithinQuery(coordinates: coordinates, name: title, area: area),
                                                  edges: AreaEdgeVectors(area)))
        }
        return OutsideQuery(coordinates: coordinates, field: spec.field, countries: countries)
    }
}
