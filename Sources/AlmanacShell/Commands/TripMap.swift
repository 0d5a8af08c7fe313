import AlmanacCore

/// `trip … --map`: the trip's text, then both stations and the great-circle route between
/// them on a braille map; under json, a GeoJSON FeatureCollection of the stations and the route.
enum TripMap {
    static func draw(from departure: (Station, Int), to arrival: (Station, Int), in stations: Dataset, lines: [String],
                     session: Session) throws {
        guard let fromLatitude = departure.0.latitude, let fromLongitude = departure.0.longitude,
              let toLatitude = arrival.0.latitude, let toLongitude = arrival.0.longitude else {
            let missing = departure.0.latitude == nil || departure.0.longitude == nil ? departure.0 : arrival.0
            throw ShellError.invalid("\(SafeText.escape(missing.title)) [\(missing.id)] has no coordinates to draw")
        }
        let start = GeoPoint(latitude: fromLatitude, longitude: fromLongitude)
        let end = GeoPoint(latitude: toLatitude, longitude: toLongitude)
        guard start.isValid, end.isValid else { throw ShellError.invalid("a station's coordinates are out of range") }
        let route = MapPicture.Route(from: start, to: end)
        let kilometres = TripCommand.distance(departure.0, arrival.0) ?? 0
        let output = session.output
        if session.settings.format.isMachineReadable {
            output.print(GeoJSONWriter.trip(from: (stations, departure.1), to: (stations, arrival.1), route: route, kilometres: kilometres))
            return
        }
        for line in lines { output.print(line) }
        let (outlines, outlineProblem) = MapCommand.outlines(in: session)
        let (columns, rows) = try MapText.size(nil, terminal: output.terminal)
        let picture = try MapPicture(results: nil, outlines: outlines, route: route, world: false, columns: columns,
                                     rows: max(2, rows - lines.count), cancellation: session.cancellation)
        for line in MapText.lines(picture.canvas, color: session.usesColor) { output.print(line) }
        let width = MapText.legendWidth(output.terminal)
        let routeText = ["the route: \(NumberFormat.grouped(kilometres, decimals: 1)) km along the great circle",
                     "from \(MapPicture.position(start)) to \(MapPicture.position(end))"]
        for line in MapText.flow(routeText, separator: " ", width: width) + MapText.flow(picture.projectionParts, separator: ", ", width: width)
            + (outlineProblem.map { [$0] } ?? []) {
            output.print(line)
        }
    }
}
