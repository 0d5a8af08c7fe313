/// Every edge of an `AreaShape` as the unit vectors `kilometres(to:)` measures with, side by
/// side: each end, the normal of its great circle (its length, and divided by it), so a
/// database computes the same angles from the same numbers.
public struct AreaEdgeVectors: Sendable, Equatable {
    public var ax: [Double] = [], ay: [Double] = [], az: [Double] = []
    public var bx: [Double] = [], by: [Double] = [], bz: [Double] = []
    /// `a × b`, its length, and `a × b` divided by its length (zeros when it is too short).
    public var nx: [Double] = [], ny: [Double] = [], nz: [Double] = []
    public var size: [Double] = []
    public var ux: [Double] = [], uy: [Double] = [], uz: [Double] = []

    public init(_ area: AreaShape) {
        for edge in area.polygons.flatMap(\.allEdges) {
            let a = AreaShape.vector(edge.y1, edge.x1)
            let b = AreaShape.vector(edge.y2, edge.x2)
            let normal = AreaShape.cross(a, b)
            let length = AreaShape.length(normal)
            ax.append(a.x); ay.append(a.y); az.append(a.z)
            bx.append(b.x); by.append(b.y); bz.append(b.z)
            nx.append(normal.x); ny.append(normal.y); nz.append(normal.z)
            size.append(length)
            let unit = length > AreaShape.shortNormal ? (normal.x / length, normal.y / length, normal.z / length) : (0, 0, 0)
            ux.append(unit.0); uy.append(unit.1); uz.append(unit.2)
        }
    }

    /// The columns in the order a database reads them.
    public var columns: [[Double]] { [ax, ay, az, bx, by, bz, nx, ny, nz, size, ux, uy, uz] }
}
