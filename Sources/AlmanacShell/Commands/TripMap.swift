import AlmanacCore

/// `trip … --map`: the trip's text, then both stations and the great-circle route between
/// them on a braille map; under json and ndjson a GeoJSON FeatureCollection of the stations
/// and the route; the other machine formats get the trip's row as without --map.
enum TripMap {
    static func result(from departure: (Station, Int), to arrival: (Station, Int), in stations: Dataset, table: ResultTable,
                       lines: [String], session: Session) throws -> CommandResult? {
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
        // GeoJSON is a document of its own, not rows (as map's).
        let (from, to) = ((stations, departure.1), (stations, arrival.1))
        let document = ResultDocument(whole: { GeoJSONWriter.trip(from: from, to: to, route: route, kilometres: kilometres) },
                                      lines: { GeoJSONWriter.tripFeatures(from: from, to: to, route: route, kilometres: kilometres) })
        if session.settings.format.isMachineReadable { return CommandResult(table, shape: .object).with(document: document) }
        let (outlines, outlineProblem) = MapCommand.outlines(in: session)
        let (columns, rows) = try MapText.size(nil, terminal: output.terminal)
        // Borders in view however short the route (RouteFrame).
        let picture = try MapPicture(results: nil, outlines: outlines, route: route, world: false, columns: columns,
                                     rows: max(2, rows - lines.count), frame: RouteFrame.around(route, outlines: outlines),
                                     cancellation: session.cancellation)
        let width = MapText.legendWidth(output.terminal)
        let routeText = ["the route: \(NumberFormat.grouped(kilometres, decimals: 1)) km along the great circle",
                         "from \(MapPicture.position(start)) to \(MapPicture.position(end))"]
        let legend = MapText.flow(routeText, separator: " ", width: width) + MapText.flow(picture.projectionParts, separator: ", ", width: width)
            + (outlineProblem.map { [$0] } ?? [])
        return CommandResult(table, shape: .object, prose: .lines(lines + MapText.lines(picture.canvas, color: session.usesColor) + legend))
            .with(document: document)
    }
}
