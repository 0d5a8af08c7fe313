#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A place on the Earth in degrees (WGS 84): latitude north, longitude east.
public struct GeoPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both are finite and within ±90° and ±180°.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}

/// The latitudes and longitudes a set of places spans.
public struct GeoBox: Sendable, Equatable {
    public var south: Double
    public var north: Double
    public var west: Double
    public var east: Double

    public init(south: Double, north: Double, west: Double, east: Double) {
        self.south = south
        self.north = north
        self.west = west
        self.east = east
    }

    public static let world = GeoBox(south: -90, north: 90, west: -180, east: 180)

    /// Nothing yet: the first point included becomes the box.
    public static let empty = GeoBox(south: .infinity, north: -.infinity, west: .infinity, east: -.infinity)

    public var isEmpty: Bool { south > north || west > east }

    public mutating func include(_ point: GeoPoint) {
        south = min(south, point.latitude)
        north = max(north, point.latitude)
        west = min(west, point.longitude)
        east = max(east, point.longitude)
    }

    public mutating func include(_ box: GeoBox) {
        guard !box.isEmpty else { return }
        south = min(south, box.south)
        north = max(north, box.north)
        west = min(west, box.west)
        east = max(east, box.east)
    }

    public func intersects(_ other: GeoBox) -> Bool {
        !isEmpty && !other.isEmpty && south <= other.north && other.south <= north && west <= other.east && other.west <= east
    }

    /// The box grown on every side by `margin` of its span (at least `minimumSpan` degrees in
    /// all), kept within the world: the frame a map draws around its records.
    public func framed(margin: Double = 0.05, minimumSpan: Double = 1) -> GeoBox {
        guard !isEmpty else { return .world }
        let latitudeSpan = max(north - south, minimumSpan)
        let longitudeSpan = max(east - west, minimumSpan)
        let middleLatitude = (south + north) / 2
        let middleLongitude = (west + east) / 2
        return GeoBox(south: max(-90, middleLatitude - latitudeSpan * (0.5 + margin)), north: min(90, middleLatitude + latitudeSpan * (0.5 + margin)),
                      west: max(-180, middleLongitude - longitudeSpan * (0.5 + margin)), east: min(180, middleLongitude + longitudeSpan * (0.5 + margin)))
    }
}

/// The equirectangular projection: x grows with longitude times the cosine of a standard
/// parallel, y with latitude, both linearly. It fits a frame into a canvas of dots (braille
/// dots are about square, two across and four down a character cell), keeping the shape.
public struct Equirectangular: Sendable, Equatable {
    public let frame: GeoBox
    /// Degrees; the middle of the frame's latitudes, within ±60° so far-north frames stay drawable.
    public let standardParallel: Double
    /// The cosine of the standard parallel: how much a degree of longitude is narrower than one of latitude.
    public let stretch: Double
    /// Dots per degree of latitude.
    public let scale: Double
    /// The canvas the frame fills, in dots.
    public let width: Int
    public let height: Int

    /// The largest canvas within `maximumWidth` × `maximumHeight` dots that holds `frame`.
    public init(frame: GeoBox, maximumWidth: Int, maximumHeight: Int) {
        self.frame = frame
        standardParallel = max(-60, min(60, ((frame.south + frame.north) / 2).rounded()))
        stretch = cos(standardParallel * .pi / 180)
        let spanX = (frame.east - frame.west) * stretch
        let spanY = frame.north - frame.south
        scale = min(Double(maximumWidth) / spanX, Double(maximumHeight) / spanY)
        width = max(1, min(maximumWidth, Int((spanX * scale).rounded())))
        height = max(1, min(maximumHeight, Int((spanY * scale).rounded())))
    }

    /// Where a point falls on the canvas, in dots from the top left (fractions kept).
    @inline(__always)
    public func project(_ point: GeoPoint) -> (x: Double, y: Double) {
        ((point.longitude - frame.west) * stretch * scale, (frame.north - point.latitude) * scale)
    }

    /// The dot a point lights, or nil outside the canvas. A point on the frame's east or south
    /// edge lights the last dot.
    @inline(__always)
    public func dot(_ point: GeoPoint) -> (x: Int, y: Int)? {
        let (x, y) = project(point)
        guard x >= 0, y >= 0, x <= Double(width), y <= Double(height) else { return nil }
        return (min(width - 1, Int(x)), min(height - 1, Int(y)))
    }

    /// Degrees of longitude one character cell (two dots) spans.
    public var degreesPerColumn: Double { 2 / (scale * stretch) }
}
