#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A country's outline made ready for questions: each polygon with its bounding box and its
/// edges (outer ring and holes together) sorted into bands of latitude, so whether a point is
/// inside costs a box test and a ray cast over the few edges of its band — the shape of GEOS's
/// IndexedPointInAreaLocator. Longitude and latitude are treated as a plane, as GeoJSON's
/// straight edges are drawn; holes by the even–odd rule, multipolygons as any of their parts.
public struct AreaShape: Sendable {
    struct Edge: Sendable {
        var x1, y1, x2, y2: Double
    }

    struct Polygon: Sendable {
        var box: GeoBox
        var bandHeight: Double
        /// Per band: where its edges start in `edges` (one more than the bands).
        var bandStarts: [Int32]
        var edges: [Edge]
        /// Every edge once, by the latitude of its middle, for distances.
        var allEdges: [Edge]
        var middles: [Double]
        /// Half the largest span of latitudes of an edge.
        var halfSpan: Double
    }

    let polygons: [Polygon]
    /// What every polygon spans.
    public let box: GeoBox

    public init(_ shapes: GeoShapes) {
        var polygons: [Polygon] = []
        var box = GeoBox.empty
        for rings in shapes.polygons {
            var edges: [Edge] = []
            var polygonBox = GeoBox.empty
            for ring in rings where ring.count > 1 {
                for point in ring { polygonBox.include(point) }
                var previous = ring[ring.count - 1]
                for point in ring {
                    if previous != point {
                        edges.append(Edge(x1: previous.longitude, y1: previous.latitude, x2: point.longitude, y2: point.latitude))
                    }
                    previous = point
                }
            }
            guard !edges.isEmpty, !polygonBox.isEmpty else { continue }
            box.include(polygonBox)
            polygons.append(Self.banded(edges, box: polygonBox))
        }
        self.polygons = polygons
        self.box = box
    }

    /// Sorts edges into bands about as many as the square root of the edges (a few per band).
    static func banded(_ edges: [Edge], box: GeoBox) -> Polygon {
        let bands = max(1, min(4096, Int(Double(edges.count).squareRoot() * 2)))
        let height = max(1e-9, (box.north - box.south) / Double(bands))
        func band(_ y: Double) -> Int { min(bands - 1, max(0, Int((y - box.south) / height))) }
        var counts = [Int32](repeating: 0, count: bands + 1)
        for edge in edges {
            for index in band(min(edge.y1, edge.y2))...band(max(edge.y1, edge.y2)) { counts[index + 1] += 1 }
        }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var next = counts
        var banded = [Edge](repeating: Edge(x1: 0, y1: 0, x2: 0, y2: 0), count: Int(counts[bands]))
        for edge in edges {
            for index in band(min(edge.y1, edge.y2))...band(max(edge.y1, edge.y2)) {
                banded[Int(next[index])] = edge
                next[index] += 1
            }
        }
        let sorted = edges.sorted { $0.y1 + $0.y2 < $1.y1 + $1.y2 }
        return Polygon(box: box, bandHeight: height, bandStarts: counts, edges: banded, allEdges: sorted,
                       middles: sorted.map { ($0.y1 + $0.y2) / 2 }, halfSpan: sorted.map { abs($0.y1 - $0.y2) / 2 }.max() ?? 0)
    }

    public var isEmpty: Bool { polygons.isEmpty }

    /// The boxes of the polygons: what a grid reads candidates from.
    public var boxes: [GeoBox] { polygons.map(\.box) }

    /// Whether the point lies inside the outline (on an edge: either way).
    @inline(__always)
    public func contains(latitude: Double, longitude: Double) -> Bool {
        for index in polygons.indices where contains(latitude: latitude, longitude: longitude, polygon: index) { return true }
        return false
    }

    public func contains(_ point: GeoPoint) -> Bool { contains(latitude: point.latitude, longitude: point.longitude) }

    /// Whether the point lies inside polygon `index` (outer ring less its holes).
    @inline(__always)
    public func contains(latitude y: Double, longitude x: Double, polygon index: Int) -> Bool {
        let polygon = polygons[index]
        let box = polygon.box
        guard y >= box.south, y <= box.north, x >= box.west, x <= box.east else { return false }
        let bands = polygon.bandStarts.count - 1
        let band = min(bands - 1, max(0, Int((y - box.south) / polygon.bandHeight)))
        var inside = false
        polygon.edges.withUnsafeBufferPointer { edges in
            for slot in Int(polygon.bandStarts[band])..<Int(polygon.bandStarts[band + 1]) {
                let edge = edges[slot]
                // Half-open in y, so a ray through a vertex counts it once.
                if (edge.y1 > y) != (edge.y2 > y) {
                    let crossing = edge.x1 + (y - edge.y1) * (edge.x2 - edge.x1) / (edge.y2 - edge.y1)
                    if x < crossing { inside.toggle() }
                }
            }
        }
        return inside
    }

    /// Kilometres from the point to the nearest edge of the outline (each edge taken as the
    /// great-circle arc between its ends); 0 inside.
    public func kilometres(to point: GeoPoint) -> Double {
        if contains(point) { return 0 }
        let p = Self.vector(point.latitude, point.longitude)
        var best = Double.infinity
        for polygon in polygons {
            // Outward from the point's latitude, edge by edge in both directions, until the
            // edges' latitudes alone (less a margin for an arc's bulge toward the pole) are
            // farther than the nearest found so far.
            let middles = polygon.middles
            var low = 0
            var high = middles.count
            while low < high {
                let mid = (low + high) / 2
                if middles[mid] < point.latitude { low = mid + 1 } else { high = mid }
            }
            var up = low
            var down = low - 1
            let reach = polygon.halfSpan + Self.bulge
            while up < middles.count || down >= 0 {
                if up < middles.count {
                    if (middles[up] - point.latitude - reach) * Haversine.radians > best {
                        up = middles.count
                    } else {
                        let edge = polygon.allEdges[up]
                        best = min(best, Self.angle(from: p, toArc: Self.vector(edge.y1, edge.x1), Self.vector(edge.y2, edge.x2)))
                        up += 1
                    }
                }
                if down >= 0 {
                    if (point.latitude - middles[down] - reach) * Haversine.radians > best {
                        down = -1
                    } else {
                        let edge = polygon.allEdges[down]
                        best = min(best, Self.angle(from: p, toArc: Self.vector(edge.y1, edge.x1), Self.vector(edge.y2, edge.x2)))
                        down -= 1
                    }
                }
            }
        }
        return best * Haversine.earthRadius
    }

    /// The most kilometres a point of the outline lies from `point` (a point of an edge's arc is
    /// within half the edge of one of its ends): whatever lies `d` km from `point` is at least
    /// `d` less this from the outline, which bounds a search for what is nearest to it.
    public func farthestKilometres(from point: GeoPoint) -> Double {
        var farthest = 0.0
        for polygon in polygons {
            for edge in polygon.allEdges {
                let ends = max(Haversine.kilometres(point.latitude, point.longitude, edge.y1, edge.x1),
                               Haversine.kilometres(point.latitude, point.longitude, edge.y2, edge.x2))
                farthest = max(farthest, ends + Haversine.kilometres(edge.y1, edge.x1, edge.y2, edge.x2) / 2)
            }
        }
        return farthest
    }

    /// Degrees an edge's arc may reach beyond its ends' latitudes (an edge of 1:110m outlines
    /// is at most a few hundred km: its great circle bulges by well under this).
    static let bulge = 1.0

    /// Below this the ends of an arc are one point: only they count.
    public static let shortNormal = 1e-15

    typealias Vector = (x: Double, y: Double, z: Double)

    @inline(__always)
    static func vector(_ latitude: Double, _ longitude: Double) -> Vector {
        let phi = latitude * Haversine.radians
        let lambda = longitude * Haversine.radians
        return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    @inline(__always)
    static func cross(_ a: Vector, _ b: Vector) -> Vector {
        (a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    @inline(__always)
    static func dot(_ a: Vector, _ b: Vector) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

    @inline(__always)
    static func length(_ a: Vector) -> Double { dot(a, a).squareRoot() }

    /// The angle between two unit vectors, exact near 0 and π.
    @inline(__always)
    static func angle(_ a: Vector, _ b: Vector) -> Double { atan2(length(cross(a, b)), dot(a, b)) }

    /// The angle from `p` to the nearest point of the minor arc from `a` to `b`: across to the
    /// arc's great circle when the foot falls between its ends, else to the nearer end.
    static func angle(from p: Vector, toArc a: Vector, _ b: Vector) -> Double {
        let normal = cross(a, b)
        let size = length(normal)
        let ends = min(angle(p, a), angle(p, b))
        guard size > shortNormal else { return ends }
        let n = (normal.x / size, normal.y / size, normal.z / size)
        let across = dot(p, n)
        let foot = (p.x - across * n.0, p.y - across * n.1, p.z - across * n.2)
        guard dot(cross(a, foot), normal) >= 0, dot(cross(foot, b), normal) >= 0 else { return ends }
        return min(ends, asin(min(1, abs(across))))
    }
}
