#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The area a route's map shows: the route with room around it, grown, when no country border
/// would be in view (two stations in one city: a short line in the middle of Russia), to reach
/// the nearest border of the countries the route starts and ends in — so the map says where the
/// route is.
public enum RouteFrame {
    public static func around(_ route: MapPicture.Route, outlines: WorldOutlines?) -> GeoBox {
        var box = GeoBox.empty
        for point in route.path { box.include(point) }
        let framed = box.framed(margin: 0.3, minimumSpan: 4)
        guard let outlines, !showsBorder(framed, outlines) else { return framed }
        // The nearest vertex of a border of the countries holding the ends (any country's, in the sea).
        let homes = outlines.outlines.filter { outline in [route.from, route.to].contains { contains(outline.shapes, $0) } }
        var nearest: (point: GeoPoint, distance: Double)?
        for outline in homes.isEmpty ? outlines.outlines : homes {
            for polygon in outline.shapes.polygons {
                for ring in polygon {
                    for vertex in ring {
                        let distance = min(degrees(vertex, route.from), degrees(vertex, route.to))
                        if distance < nearest?.distance ?? .infinity { nearest = (vertex, distance) }
                    }
                }
            }
        }
        guard let nearest else { return framed }
        // Around the route, twice as far as that border on every side: it and its neighbours show.
        let reach = nearest.distance * 2
        let stretch = max(0.2, cos(middle(route).latitude * .pi / 180))
        box.include(GeoPoint(latitude: max(-90, middle(route).latitude - reach), longitude: max(-180, middle(route).longitude - reach / stretch)))
        box.include(GeoPoint(latitude: min(90, middle(route).latitude + reach), longitude: min(180, middle(route).longitude + reach / stretch)))
        return box.framed(margin: 0, minimumSpan: 4)
    }

    static func middle(_ route: MapPicture.Route) -> GeoPoint {
        GeoPoint(latitude: (route.from.latitude + route.to.latitude) / 2, longitude: (route.from.longitude + route.to.longitude) / 2)
    }

    /// Whether some outline has a vertex inside `box`: a border (or coast) is in view.
    static func showsBorder(_ box: GeoBox, _ outlines: WorldOutlines) -> Bool {
        for outline in outlines.outlines where outline.box.intersects(box) {
            for polygon in outline.shapes.polygons {
                for ring in polygon where ring.contains(where: { inside($0, box) }) { return true }
            }
        }
        return false
    }

    static func inside(_ point: GeoPoint, _ box: GeoBox) -> Bool {
        point.latitude >= box.south && point.latitude <= box.north && point.longitude >= box.west && point.longitude <= box.east
    }

    /// Whether `point` is inside one of the polygons (even-odd over each polygon's rings).
    public static func contains(_ shapes: GeoShapes, _ point: GeoPoint) -> Bool {
        guard inside(point, shapes.box) else { return false }
        for polygon in shapes.polygons {
            var inside = false
            for ring in polygon where ring.count > 2 {
                var previous = ring[ring.count - 1]
                for vertex in ring {
                    if (vertex.latitude > point.latitude) != (previous.latitude > point.latitude),
                       point.longitude < (previous.longitude - vertex.longitude) * (point.latitude - vertex.latitude)
                       / (previous.latitude - vertex.latitude) + vertex.longitude {
                        inside.toggle()
                    }
                    previous = vertex
                }
            }
            if inside { return true }
        }
        return false
    }

    /// Distance in degrees on an equirectangular plane at the points' latitude: enough to pick the nearest.
    static func degrees(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let stretch = cos((a.latitude + b.latitude) / 2 * .pi / 180)
        return hypot(a.latitude - b.latitude, (a.longitude - b.longitude) * stretch)
    }
}
