import AlmanacCore

/// `outside` on a table: the rows whose point lies outside the outline of their own country,
/// farthest out first, with their distance to it. The country names the table holds are read
/// once (`GROUP BY`, a few dozen for stations) and resolved here, as memory resolves them; each
/// country's outline travels as arrays bound to the statement, and the database decides and
/// measures every row.
public struct OutsideQuery: Sendable, Equatable {
    /// A country name of the table's field and the outline it resolves to.
    public struct Country: Sendable, Equatable {
        public var title: String
        public var inside: WithinQuery
        public var edges: AreaEdgeVectors

        public init(title: String, inside: WithinQuery, edges: AreaEdgeVectors) {
            self.title = title
            self.inside = inside
            self.edges = edges
        }
    }

    public var coordinates: NearQuery.Coordinates
    /// The field naming each row's country (countryTitle or country).
    public var field: String
    /// The names with an outline; rows naming none of them are not judged.
    public var countries: [Country]

    public init(coordinates: NearQuery.Coordinates, field: String, countries: [Country]) {
        self.coordinates = coordinates
        self.field = field
        self.countries = countries
    }

    /// How many different country names a table may hold for outside to bind their outlines.
    public static let countryLimit = 1000
}
