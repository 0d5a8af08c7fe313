import AlmanacCore

/// `within COUNTRY` on a table: the rows whose point lies inside a country's outline, as a
/// condition the database evaluates — the outline's box, then `AreaShape.contains`'s even–odd
/// ray cast over the edges of the point's band, bound as arrays.
public struct WithinQuery: Sendable, Equatable {
    public var coordinates: NearQuery.Coordinates
    /// The country's name, for messages.
    public var name: String
    public var box: GeoBox
    public var columns: AreaShapeColumns

    public init(coordinates: NearQuery.Coordinates, name: String, area: AreaShape) {
        self.coordinates = coordinates
        self.name = name
        box = area.box
        columns = AreaShapeColumns(area)
    }
}
