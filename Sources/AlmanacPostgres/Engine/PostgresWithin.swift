import AlmanacCore

extension PostgresResults {
    /// `within` as the table's question: its coordinates found as `near` finds them, the
    /// outline's boxes and edges.
    func withinQuery(_ spec: WithinSpec, cancellation: Cancellation) throws -> WithinQuery {
        WithinQuery(coordinates: try coordinateFields(for: "within", cancellation: cancellation), name: spec.name, area: spec.area)
    }
}
