/// Results as one GeoJSON FeatureCollection (RFC 7946): a Feature per record, its geometry in
/// `[longitude, latitude]` order and its properties the record's own fields. A country with
/// an outline gets the outline; a record that is already a Feature is written as it is; a
/// record without coordinates keeps its place with a `null` geometry (RFC 7946 §3.2).
public enum GeoJSONWriter {
    public static func featureCollection(_ results: ResultSet, outlines: WorldOutlines?, cancellation: Cancellation = .never)
        throws(CancelledError) -> String {
        var writer = JSONWriter()
        writer.append("{\"type\":\"FeatureCollection\",\"features\":[")
        let locators = results.datasets.map { GeoLocator(dataset: $0, outlines: outlines) }
        for (position, item) in results.items.enumerated() {
            if position & 0xFFFF == 0 { try cancellation.checkpoint() }
            writer.append(position == 0 ? "\n" : ",\n")
            feature(row: item.row, locator: locators[item.dataset], into: &writer, computed: computedMembers(results, item))
        }
        writer.append(results.isEmpty ? "]}" : "\n]}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Two stations and the great-circle route between them: a Point Feature for each (their
    /// records as properties) and a LineString (a MultiLineString if it crosses ±180°).
    public static func trip(from: (Dataset, Int), to: (Dataset, Int), route: MapPicture.Route, kilometres: Double) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n"
            + tripFeatures(from: from, to: to, route: route, kilometres: kilometres).joined(separator: ",\n") + "\n]}"
    }

    /// The trip's three Features, one compact JSON object each (NDJSON writes one a line).
    public static func tripFeatures(from: (Dataset, Int), to: (Dataset, Int), route: MapPicture.Route, kilometres: Double) -> [String] {
        var features: [String] = []
        for (dataset, row) in [from, to] {
            var writer = JSONWriter()
            feature(row: row, locator: GeoLocator(dataset: dataset), into: &writer)
            features.append(String(decoding: writer.bytes, as: UTF8.self))
        }
        var writer = JSONWriter()
        writer.append("{\"type\":\"Feature\",\"geometry\":")
        let pieces = GreatCircle.pieces(of: route.path)
        if pieces.count == 1 {
            writer.append("{\"type\":\"LineString\",\"coordinates\":")
            positions(pieces[0], into: &writer)
        } else {
            writer.append("{\"type\":\"MultiLineString\",\"coordinates\":[")
            for (index, piece) in pieces.enumerated() {
                if index > 0 { writer.append(",") }
                positions(piece, into: &writer)
            }
            writer.append("]")
        }
        writer.append("},\"properties\":{\"route\":\"great circle\",\"kilometres\":\(NumberFormat.plain((kilometres * 10).rounded() / 10))}}")
        features.append(String(decoding: writer.bytes, as: UTF8.self))
        return features
    }

    /// The computed columns of an item (`"distance":12.3`), as members of its properties.
    public static func computedMembers(_ results: ResultSet, _ item: ResultSet.Item) -> [String] {
        results.computed.compactMap { column in
            var writer = JSONWriter()
            writer.writeString(column.name)
            writer.append(":" + (column.text(of: item) ?? "null"))
            return String(decoding: writer.bytes, as: UTF8.self)
        }
    }

    /// One record as a Feature; `computed` members are added to its properties.
    public static func feature(row: Int, locator: GeoLocator, into writer: inout JSONWriter, computed: [String] = []) {
        let dataset = locator.dataset
        let document = dataset.document
        let record = dataset.records[row]
        if let type = document.member("type", of: record), document.kind(at: type) == .string, document.string(at: type) == "Feature" {
            writer.write(document, record)
            return
        }
        writer.append("{\"type\":\"Feature\",\"geometry\":")
        let location = locator.locate(row: row)
        switch location {
        case .none, .invalid:
            writer.append("null")
        case let .point(point):
            writer.append("{\"type\":\"Point\",\"coordinates\":")
            positions([point], into: &writer, single: true)
            writer.append("}")
        case let .shapes(_, node, outline):
            if let node {
                writer.write(document, node)
            } else if let outline, let outlines = locator.outlines {
                writer.write(outlines.document, outlines.outlines[outline].geometry)
            } else {
                writer.append("null")
            }
        }
        writer.append(",\"properties\":")
        guard document.kind(at: record) == .object else {
            writer.write(document, record)
            writer.append("}")
            return
        }
        // A top-level `geometry` field is the Feature's geometry, not a property too (a loaded
        // FeatureCollection's records keep it there); one that could not be read stays.
        var omitted: Int?
        if case let .geometry(path)? = locator.source, path.components.count == 1 {
            if case .invalid = location {} else { omitted = document.member(path.components[0], of: record) }
        }
        var first = true
        for member in document.members(of: record) where member.value != omitted {
            writer.append(first ? "{" : ",")
            writer.write(document, member.key)
            writer.append(":")
            writer.write(document, member.value)
            first = false
        }
        for member in computed {
            writer.append(first ? "{" : ",")
            writer.append(member)
            first = false
        }
        writer.append(first ? "{}}" : "}}")
    }

    /// `[lon,lat]` (single) or `[[lon,lat],…]`, each number as short as reads back exactly.
    static func positions(_ points: [GeoPoint], into writer: inout JSONWriter, single: Bool = false) {
        if !single { writer.append("[") }
        for (index, point) in points.enumerated() {
            if index > 0 { writer.append(",") }
            writer.append("[\(NumberFormat.plain(point.longitude)),\(NumberFormat.plain(point.latitude))]")
        }
        if !single { writer.append("]") }
    }
}
