import Synchronization

/// Every outline of `WorldOutlines` as an `AreaShape`: which outline a point lies in, and the
/// outlines a great circle crosses, in order.
public struct WorldAreas: Sendable {
    public let outlines: WorldOutlines
    public let areas: [AreaShape]

    public init(_ outlines: WorldOutlines) {
        self.outlines = outlines
        areas = outlines.outlines.map { AreaShape($0.shapes) }
    }

    private static let cache = Mutex<[String: WorldAreas]>([:])

    /// The areas of `outlines`, made once per source file.
    public static func shared(_ outlines: WorldOutlines) -> WorldAreas {
        if let known = cache.withLock({ $0[outlines.source] }) { return known }
        let areas = WorldAreas(outlines)
        cache.withLock { $0[outlines.source] = areas }
        return areas
    }

    /// The outline a point lies in (the first, should two overlap), trying `hint` first.
    public func outline(at point: GeoPoint, hint: Int? = nil) -> Int? {
        if let hint, hint < areas.count, areas[hint].contains(point) { return hint }
        for (index, area) in areas.enumerated() where index != hint && area.contains(point) { return index }
        return nil
    }

    /// One stretch of a route inside one outline.
    public struct Crossing: Sendable, Equatable {
        public var outline: Int
        /// Kilometres from the start where the route enters and leaves it.
        public var enters: Double
        public var leaves: Double

        public var kilometres: Double { leaves - enters }
    }

    /// The outlines the great circle from `start` to `end` passes through, in order, found by
    /// testing points along it at most `step` km apart (a country crossed for less may be
    /// missed); a stretch starts and ends halfway between the test points on either side.
    public func crossings(from start: GeoPoint, to end: GeoPoint, step: Double = 1) -> [Crossing] {
        let total = Haversine.kilometres(start, end)
        let samples = max(1, min(40_000, Int((total / max(0.01, step)).rounded(.up))))
        var crossings: [Crossing] = []
        var current: Int?
        for index in 0...samples {
            let fraction = Double(index) / Double(samples)
            let point = index == 0 ? start : index == samples ? end : GreatCircle.point(fraction, from: start, to: end)
            let found = outline(at: point, hint: current)
            let at = total * fraction
            let boundary = index == 0 ? 0 : total * (Double(index) - 0.5) / Double(samples)
            if found != current {
                if current != nil { crossings[crossings.count - 1].leaves = boundary }
                if let found { crossings.append(Crossing(outline: found, enters: boundary, leaves: at)) }
                current = found
            }
            if current != nil { crossings[crossings.count - 1].leaves = at }
        }
        return crossings
    }
}
