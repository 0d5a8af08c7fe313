import AlmanacCore

/// `path … --map`: the chain's countries filled on a braille map, joined by a line through
/// their centres (latlng); under json a GeoJSON FeatureCollection of the countries in order.
enum PathMap {
    static func result(_ chain: [Int], countries: Dataset, table: ResultTable, summary: String, in session: Session) throws -> CommandResult? {
        let results = ResultSet(datasets: [countries], items: chain.map { ResultSet.Item(dataset: 0, row: $0) })
        let (outlines, outlineProblem) = MapCommand.outlines(in: session)
        let output = session.output
        let document = MapCommand.geoJSON(results, outlines: outlines, cancellation: session.cancellation)
        if session.settings.format.isMachineReadable { return CommandResult(table).with(document: document) }
        let (columns, rows) = try MapText.size(nil, terminal: output.terminal)
        var picture = try MapPicture(results: results, outlines: outlines, world: false, columns: columns,
                                     rows: max(4, rows - chain.count - 4), cancellation: session.cancellation)
        // The line through the centres, over the outlines, with a mark at each centre.
        let pointLocator = GeoLocator(dataset: countries)
        let centres = chain.compactMap { row -> GeoPoint? in
            if case let .point(point) = pointLocator.locate(row: row) { return point }
            return nil
        }
        for (a, b) in zip(centres, centres.dropFirst()) {
            picture.canvas.line(from: picture.projection.project(a), to: picture.projection.project(b), ink: .route, wide: true)
        }
        for centre in centres {
            if let (x, y) = picture.projection.dot(centre) { picture.canvas.mark(x: x, y: y, size: 4, ink: .point) }
        }
        let width = MapText.legendWidth(output.terminal)
        let names = chain.map { SafeText.escape(countries.name(of: $0)) }.joined(separator: " → ")
        let legend = MapText.flow([summary + ":", names], separator: " ", width: width)
            + MapText.flow(picture.projectionParts, separator: ", ", width: width) + (outlineProblem.map { [$0] } ?? [])
        return CommandResult(table, prose: .lines(MapText.lines(picture.canvas, color: session.usesColor) + legend)).with(document: document)
    }
}
