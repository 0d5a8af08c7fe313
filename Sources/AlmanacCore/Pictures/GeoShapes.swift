/// The points, lines and polygons of a GeoJSON geometry (RFC 7946), in degrees.
public struct GeoShapes: Sendable, Equatable {
    public var points: [GeoPoint] = []
    public var lines: [[GeoPoint]] = []
    /// Each polygon is its rings: the outer ring first, then its holes.
    public var polygons: [[[GeoPoint]]] = []

    public init(points: [GeoPoint] = [], lines: [[GeoPoint]] = [], polygons: [[[GeoPoint]]] = []) {
        self.points = points
        self.lines = lines
        self.polygons = polygons
    }

    public var isEmpty: Bool { points.isEmpty && lines.isEmpty && polygons.isEmpty }

    /// Every vertex's extent.
    public var box: GeoBox {
        var box = GeoBox.empty
        for point in points { box.include(point) }
        for line in lines { for point in line { box.include(point) } }
        for polygon in polygons { for point in polygon.first ?? [] { box.include(point) } }
        return box
    }

    /// The extent of the largest polygon (by the area of its box), else of everything: a
    /// country framed by its mainland, not by its farthest island.
    public var mainBox: GeoBox {
        let boxes = polygons.map { polygon in
            var box = GeoBox.empty
            for point in polygon.first ?? [] { box.include(point) }
            return box
        }
        guard let largest = boxes.max(by: { ($0.north - $0.south) * ($0.east - $0.west) < ($1.north - $1.south) * ($1.east - $1.west) })
        else { return box }
        var box = largest
        for point in points { box.include(point) }
        for line in lines { for point in line { box.include(point) } }
        return box
    }

    /// Reads the geometry object at `node`: Point, MultiPoint, LineString, MultiLineString,
    /// Polygon, MultiPolygon or GeometryCollection. Nil when it is none of them or holds a
    /// position out of range.
    public static func read(_ document: JSONDocument, _ node: Int) -> GeoShapes? {
        var shapes = GeoShapes()
        guard add(document, node, to: &shapes, depth: 0), !shapes.isEmpty else { return nil }
        return shapes
    }

    private static func add(_ document: JSONDocument, _ node: Int, to shapes: inout GeoShapes, depth: Int) -> Bool {
        guard document.kind(at: node) == .object, let typeNode = document.member("type", of: node),
              document.kind(at: typeNode) == .string else { return false }
        let type = document.string(at: typeNode)
        if type == "GeometryCollection" {
            guard depth < 8, let members = document.member("geometries", of: node) else { return false }
            return document.elements(of: members).allSatisfy { add(document, $0, to: &shapes, depth: depth + 1) }
        }
        guard let coordinates = document.member("coordinates", of: node) else { return false }
        func position(_ node: Int) -> GeoPoint? {
            let parts = document.elements(of: node)
            guard parts.count >= 2, document.kind(at: parts[0]) == .number, document.kind(at: parts[1]) == .number else { return nil }
            let point = GeoPoint(latitude: document.number(at: parts[1]), longitude: document.number(at: parts[0]))
            return point.isValid ? point : nil
        }
        func positions(_ node: Int) -> [GeoPoint]? {
            guard document.kind(at: node) == .array else { return nil }
            var points: [GeoPoint] = []
            for element in document.elements(of: node) {
                guard let point = position(element) else { return nil }
                points.append(point)
            }
            return points
        }
        func polygon(_ node: Int) -> [[GeoPoint]]? {
            guard document.kind(at: node) == .array else { return nil }
            var rings: [[GeoPoint]] = []
            for ring in document.elements(of: node) {
                guard let points = positions(ring) else { return nil }
                rings.append(points)
            }
            return rings
        }
        func list<Item>(_ node: Int, _ read: (Int) -> Item?) -> [Item]? {
            guard document.kind(at: node) == .array else { return nil }
            var items: [Item] = []
            for element in document.elements(of: node) {
                guard let item = read(element) else { return nil }
                items.append(item)
            }
            return items
        }
        switch type {
        case "Point":
            guard let point = position(coordinates) else { return false }
            shapes.points.append(point)
        case "MultiPoint":
            guard let points = positions(coordinates) else { return false }
            shapes.points += points
        case "LineString":
            guard let line = positions(coordinates) else { return false }
            shapes.lines.append(line)
        case "MultiLineString":
            guard let lines = list(coordinates, positions) else { return false }
            shapes.lines += lines
        case "Polygon":
            guard let rings = polygon(coordinates) else { return false }
            shapes.polygons.append(rings)
        case "MultiPolygon":
            guard let polygons = list(coordinates, polygon) else { return false }
            shapes.polygons += polygons
        default:
            return false
        }
        return true
    }
}
