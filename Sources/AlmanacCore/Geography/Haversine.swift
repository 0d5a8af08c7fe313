#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle distance on a sphere of the Earth's mean radius (haversine), in kilometres:
/// one pair of points, or whole columns at once (what `near` and a `distance(…)` expression
/// read), with the cheap threshold test a radius query needs before the exact distance.
public enum Haversine {
    /// The IUGG mean Earth radius, in km.
    public static let earthRadius = 6371.0088
    public static let radians = Double.pi / 180

    /// Kilometres between two points given in degrees.
    @inline(__always)
    public static func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        kilometres(fromHalfChord: halfChord(lat1, lon1, lat2, lon2))
    }

    public static func kilometres(_ from: GeoPoint, _ to: GeoPoint) -> Double {
        kilometres(from.latitude, from.longitude, to.latitude, to.longitude)
    }

    /// The haversine term `a` = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2), which grows with the
    /// distance: comparing it with `halfChord(forKilometres:)` tests a radius without a square root.
    @inline(__always)
    public static func halfChord(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let sinLat = sin(dLat / 2)
        let sinLon = sin(dLon / 2)
        return sinLat * sinLat + cos(lat1 * radians) * cos(lat2 * radians) * sinLon * sinLon
    }

    @inline(__always)
    public static func kilometres(fromHalfChord a: Double) -> Double {
        earthRadius * 2 * atan2(sqrt(max(0, a)), sqrt(max(0, 1 - a)))
    }

    /// The haversine term of a distance: the largest `a` within `kilometres`.
    public static func halfChord(forKilometres kilometres: Double) -> Double {
        let angle = min(Double.pi, max(0, kilometres / earthRadius))
        let half = sin(angle / 2)
        return half * half
    }

    /// Kilometres from one point to each of the points of two columns; NaN where a column holds NaN.
    public static func kilometres(from point: GeoPoint, latitudes: UnsafeBufferPointer<Double>, longitudes: UnsafeBufferPointer<Double>,
                                  into result: UnsafeMutableBufferPointer<Double>) {
        let count = min(latitudes.count, longitudes.count, result.count)
        let cosine = cos(point.latitude * radians)
        for index in 0..<count {
            let latitude = latitudes[index]
            let dLat = (latitude - point.latitude) * radians
            let dLon = (longitudes[index] - point.longitude) * radians
            let sinLat = sin(dLat / 2)
            let sinLon = sin(dLon / 2)
            result[index] = kilometres(fromHalfChord: sinLat * sinLat + cosine * cos(latitude * radians) * sinLon * sinLon)
        }
    }

    /// Kilometres between the points of four columns, row by row: `distance(lat1, lon1, lat2, lon2)`.
    public static func kilometres(latitudes1: [Double], longitudes1: [Double], latitudes2: [Double], longitudes2: [Double]) -> [Double] {
        let count = min(latitudes1.count, longitudes1.count, latitudes2.count, longitudes2.count)
        return [Double](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                buffer[index] = kilometres(latitudes1[index], longitudes1[index], latitudes2[index], longitudes2[index])
            }
            initialized = count
        }
    }

    /// Kilometres rounded to one decimal, as results show and sort them.
    @inline(__always)
    public static func rounded(_ kilometres: Double) -> Double { (kilometres * 10).rounded() / 10 }
}
