import AlmanacCore

/// `within COUNTRY` on a table: the rows whose point lies inside a country's outline, as a
/// condition the database evaluates — the polygons' boxes, then the even–odd ray cast of
/// `AreaShape.contains` over the outline's edges, bound as arrays.
public struct WithinQuery: Sendable, Equatable {
    public var coordinates: NearQuery.Coordinates
    /// The country's name, for messages.
    public var name: String
    /// Per polygon: its box.
    public var boxes: [GeoBox]
    /// Every edge of every polygon: its polygon (an index into `boxes`) and its ends as
    /// longitude x and latitude y.
    public var polygon: [Int]
    public var x1: [Double]
    public var y1: [Double]
    public var x2: [Double]
    public var y2: [Double]

    public init(coordinates: NearQuery.Coordinates, name: String, area: AreaShape) {
        self.coordinates = coordinates
        self.name = name
        boxes = area.boxes
        (polygon, x1, y1, x2, y2) = area.edgeColumns
    }

    /// What every polygon spans.
    var box: GeoBox {
        boxes.reduce(GeoBox.empty) { var box = $0; box.include($1); return box }
    }
}
