/// A map of a result set drawn in braille: country outlines around the records, countries
/// in the results as their outlines (filled with a light stipple), other records as points,
/// and optionally a route; with what a legend needs to say.
public struct MapPicture: Sendable {
    public struct Route: Sendable {
        public var from: GeoPoint
        public var to: GeoPoint
        public var path: [GeoPoint]

        public init(from: GeoPoint, to: GeoPoint, segments: Int = 256) {
            self.from = from
            self.to = to
            path = GreatCircle.path(from: from, to: to, segments: segments)
        }
    }

    public var canvas: BrailleCanvas
    public var projection: Equirectangular
    /// Records placed on the map.
    public var drawn = 0
    /// Records without coordinates (or with unusable ones).
    public var withoutCoordinates = 0
    /// Of those, the ones whose coordinates were out of range or unreadable.
    public var invalid = 0
    /// What the drawn records span (empty when none was drawn).
    public var extent = GeoBox.empty
    /// Where coordinates came from, per dataset: `stations: point.latitude, point.longitude`.
    public var sources: [String] = []

    /// Draws `results` (and `route`) within `columns` × `rows` character cells, framing them
    /// with a margin, or the whole world when `world` is set.
    /// `frame`: the area to show, when the caller chose it (a route's: RouteFrame).
    public init(results: ResultSet?, outlines: WorldOutlines?, route: Route? = nil, world: Bool, columns: Int, rows: Int,
                frame chosenFrame: GeoBox? = nil, cancellation: Cancellation = .never) throws(CancelledError) {
        var points: [GeoPoint] = []
        var shapes: [GeoShapes] = []
        var extent = GeoBox.empty
        var frameBox = GeoBox.empty
        if let results {
            let locators = results.datasets.map { GeoLocator(dataset: $0, outlines: outlines) }
            for locator in locators where locator.canLocate {
                var parts: [String] = []
                if let code = locator.codeField { parts.append("outline by \(code)") }
                if let source = locator.source { parts.append(source.description) }
                sources.append("\(locator.dataset.name): " + parts.joined(separator: ", else "))
            }
            points.reserveCapacity(results.count)
            // One pass per dataset (a handful at most) keeps its locator and document in hand.
            var position = 0
            for (datasetIndex, locator) in locators.enumerated() {
                for item in results.items where item.dataset == datasetIndex {
                    position += 1
                    if position & 0xFFFF == 0 { try cancellation.checkpoint() }
                    switch locator.locate(row: item.row) {
                    case .none:
                        withoutCoordinates += 1
                    case .invalid:
                        withoutCoordinates += 1
                        invalid += 1
                    case let .point(point):
                        drawn += 1
                        points.append(point)
                        extent.include(point)
                    case let .shapes(found, _, _):
                        drawn += 1
                        shapes.append(found)
                        extent.include(found.box)
                        frameBox.include(found.mainBox)
                    }
                }
            }
        }
        for point in points { frameBox.include(point) }
        if let route { for point in route.path { frameBox.include(point) } }
        self.extent = extent
        // A route alone gets room around it, so its ends are seen among their neighbours.
        let frame = chosenFrame ?? (world ? GeoBox.world : results == nil && route != nil ? frameBox.framed(margin: 0.3, minimumSpan: 4) : frameBox.framed())
        projection = Equirectangular(frame: frame, maximumWidth: max(2, columns * 2),
                                     maximumHeight: max(4, rows * 4))
        canvas = BrailleCanvas(dotsWide: projection.width, high: projection.height)

        if let outlines {
            for outline in outlines.outlines where outline.box.intersects(projection.frame) {
                draw(outline.shapes, ink: .outline, fill: false)
            }
        }
        for shape in shapes { draw(shape, ink: .shape, fill: true) }
        if let route {
            drawLine(route.path, ink: .route, wide: true)
            for point in [route.from, route.to] {
                if let (x, y) = projection.dot(point) { canvas.mark(x: x, y: y, size: 4, ink: .point) }
            }
        }
        let projection = self.projection
        var canvas = self.canvas
        for point in points {
            if let (x, y) = projection.dot(point) { canvas.set(x: x, y: y, ink: .point) }
        }
        self.canvas = canvas
    }

    private mutating func drawPoint(_ point: GeoPoint) {
        if let (x, y) = projection.dot(point) { canvas.set(x: x, y: y, ink: .point) }
    }

    /// A polyline; a step of more than 180° of longitude crosses the antimeridian and is not drawn.
    private mutating func drawLine(_ line: [GeoPoint], ink: BrailleCanvas.Ink, wide: Bool = false) {
        guard var previous = line.first else { return }
        if line.count == 1, let (x, y) = projection.dot(previous) { canvas.set(x: x, y: y, ink: ink) }
        for point in line.dropFirst() {
            if abs(point.longitude - previous.longitude) <= 180 {
                canvas.line(from: projection.project(previous), to: projection.project(point), ink: ink, wide: wide)
            }
            previous = point
        }
    }

    private mutating func draw(_ shapes: GeoShapes, ink: BrailleCanvas.Ink, fill: Bool) {
        for polygon in shapes.polygons {
            if fill { canvas.fill(polygon.map { $0.map(projection.project) }, every: 2, ink: ink) }
            for ring in polygon { drawLine(ring, ink: ink) }
        }
        for line in shapes.lines { drawLine(line, ink: ink) }
        for point in shapes.points { drawPoint(point) }
    }

    /// The map as lines of text.
    public var lines: [String] { canvas.lines }

    /// `latitude 36.72°N to 61.25°N · longitude 9.15°W to 136.62°E`, or nil when nothing was drawn.
    public var extentText: String? { extentParts.isEmpty ? nil : extentParts.joined(separator: " · ") }

    /// `latitude 36.72°N to 61.25°N`, `longitude 9.15°W to 136.62°E` (none when nothing was drawn).
    public var extentParts: [String] {
        guard !extent.isEmpty else { return [] }
        return ["latitude \(Self.degrees(extent.south, "N", "S")) to \(Self.degrees(extent.north, "N", "S"))",
                "longitude \(Self.degrees(extent.west, "E", "W")) to \(Self.degrees(extent.east, "E", "W"))"]
    }

    /// `equirectangular projection (standard parallel 49°N), one column ≈ 0.8° of longitude`.
    public var projectionText: String { projectionParts.joined(separator: ", ") }

    public var projectionParts: [String] {
        let parallel = projection.standardParallel == 0 ? "the equator" : Self.degrees(projection.standardParallel, "N", "S", decimals: 0)
        return ["equirectangular projection (standard parallel \(parallel))",
                "one column ≈ " + NumberFormat.grouped(projection.degreesPerColumn, decimals: projection.degreesPerColumn < 1 ? 3 : 1)
                    + "° of longitude"]
    }

    /// `48.20°N 16.37°E`.
    public static func position(_ point: GeoPoint) -> String {
        degrees(point.latitude, "N", "S") + " " + degrees(point.longitude, "E", "W")
    }

    static func degrees(_ value: Double, _ positive: String, _ negative: String, decimals: Int = 2) -> String {
        NumberFormat.fixed(abs(value), decimals: decimals) + "°" + (value < 0 ? negative : positive)
    }
}
