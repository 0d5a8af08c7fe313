/// An `AreaShape` as columns of numbers, for a database to run `contains` over: per polygon
/// its box and bands, and the edges of each band side by side (an edge in every band it
/// spans, as `contains` reads them).
public struct AreaShapeColumns: Sendable, Equatable {
    public var south: [Double] = []
    public var north: [Double] = []
    public var west: [Double] = []
    public var east: [Double] = []
    public var bandHeight: [Double] = []
    public var bands: [Int] = []
    /// Per polygon: where its bands start in `bandStarts` (0-based).
    public var firstBand: [Int] = []
    /// Per band of every polygon, and one more per polygon: where its edges start (0-based).
    public var bandStarts: [Int] = []
    public var x1: [Double] = []
    public var y1: [Double] = []
    public var x2: [Double] = []
    public var y2: [Double] = []

    public init(_ area: AreaShape) {
        for polygon in area.polygons {
            south.append(polygon.box.south)
            north.append(polygon.box.north)
            west.append(polygon.box.west)
            east.append(polygon.box.east)
            bandHeight.append(polygon.bandHeight)
            bands.append(polygon.bandStarts.count - 1)
            firstBand.append(bandStarts.count)
            bandStarts += polygon.bandStarts.map { x1.count + Int($0) }
            for edge in polygon.edges {
                x1.append(edge.x1)
                y1.append(edge.y1)
                x2.append(edge.x2)
                y2.append(edge.y2)
            }
        }
    }
}
