#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The shortest way between two places on a sphere: the arc of the great circle through them.
public enum GreatCircle {
    /// The point a `fraction` of the way along the arc from `start` to `end` (spherical linear
    /// interpolation of the two unit vectors). Antipodes have no single arc: the start is returned.
    public static func point(_ fraction: Double, from start: GeoPoint, to end: GeoPoint) -> GeoPoint {
        let a = vector(start)
        let b = vector(end)
        let cosine = max(-1, min(1, a.x * b.x + a.y * b.y + a.z * b.z))
        let angle = acos(cosine)
        guard angle > 1e-12, angle < .pi - 1e-9 else { return fraction < 0.5 || angle <= 1e-12 ? start : end }
        let weightA = sin((1 - fraction) * angle) / sin(angle)
        let weightB = sin(fraction * angle) / sin(angle)
        return point(of: (weightA * a.x + weightB * b.x, weightA * a.y + weightB * b.y, weightA * a.z + weightB * b.z))
    }

    /// `segments + 1` points from `start` to `end` along the arc, both ends included exactly.
    public static func path(from start: GeoPoint, to end: GeoPoint, segments: Int = 128) -> [GeoPoint] {
        let segments = max(1, segments)
        var path = (0...segments).map { point(Double($0) / Double(segments), from: start, to: end) }
        path[0] = start
        path[segments] = end
        return path
    }

    /// The path cut where it crosses the antimeridian (±180°), as RFC 7946 asks of lines: a
    /// step of more than 180° of longitude starts a new piece.
    public static func pieces(of path: [GeoPoint]) -> [[GeoPoint]] {
        var pieces: [[GeoPoint]] = []
        for point in path {
            if let last = pieces.last?.last, abs(point.longitude - last.longitude) <= 180 {
                pieces[pieces.count - 1].append(point)
            } else {
                pieces.append([point])
            }
        }
        return pieces
    }

    static func vector(_ point: GeoPoint) -> (x: Double, y: Double, z: Double) {
        let latitude = point.latitude * .pi / 180
        let longitude = point.longitude * .pi / 180
        return (cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
    }

    static func point(of vector: (x: Double, y: Double, z: Double)) -> GeoPoint {
        let length = (vector.x * vector.x + vector.y * vector.y + vector.z * vector.z).squareRoot()
        return GeoPoint(latitude: asin(max(-1, min(1, vector.z / length))) * 180 / .pi, longitude: atan2(vector.y, vector.x) * 180 / .pi)
    }
}
