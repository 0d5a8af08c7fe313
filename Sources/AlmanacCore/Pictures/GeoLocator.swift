/// Where a dataset's records are on the Earth, found once per dataset from the records
/// themselves: fields named like `lat`/`latitude` and `lon`/`lng`/`longitude` side by side
/// (stations' `point.latitude`), a `[latitude, longitude]` list named `latlng` (countries), or a
/// GeoJSON `geometry`. Countries — records with an `alpha3Code` — are also joined to their
/// outlines in `WorldOutlines`.
public struct GeoLocator: Sendable {
    public enum Source: Sendable, Equatable {
        case latitudeLongitude(latitude: FieldPath, longitude: FieldPath)
        /// A `[latitude, longitude]` list.
        case pair(FieldPath)
        /// A GeoJSON geometry object.
        case geometry(FieldPath)

        /// `point.latitude/point.longitude`, `latlng`, `geometry`: for the legend.
        public var description: String {
            switch self {
            case let .latitudeLongitude(latitude, longitude): "\(latitude), \(longitude)"
            case let .pair(path): "\(path) [lat, lon]"
            case let .geometry(path): "\(path) (GeoJSON)"
            }
        }
    }

    /// Where a record is.
    public enum Location: Sendable {
        case none
        /// Coordinates out of range (a latitude of 300) or unreadable.
        case invalid
        case point(GeoPoint)
        /// A geometry from the record (`node` in the dataset's document), or a country's outline.
        case shapes(GeoShapes, node: Int?, outline: Int?)
    }

    public let dataset: Dataset
    public let source: Source?
    /// The field joining records to outlines (`alpha3Code`), when outlines were given.
    public let codeField: String?
    public let outlines: WorldOutlines?

    private let parentKeys: [JSONDocument.Key]
    private let firstKey: JSONDocument.Key
    private let secondKey: JSONDocument.Key
    private let codeKey: JSONDocument.Key
    private let nameKey: JSONDocument.Key

    static let latitudeNames: Set<String> = ["lat", "latitude"]
    static let longitudeNames: Set<String> = ["lon", "lng", "long", "longitude"]
    static let pairNames: Set<String> = ["latlng", "lat_lng", "latlon", "lat_lon"]
    static let codeNames = ["alpha3Code", "iso_a3", "cca3", "ISO3", "iso3"]
    static let geometryTypes: Set<String> = ["Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
                                             "GeometryCollection"]

    public init(dataset: Dataset, outlines: WorldOutlines? = nil) {
        self.dataset = dataset
        self.outlines = outlines
        let document = dataset.document
        let (source, code) = Self.detect(in: dataset)
        self.source = source
        codeField = outlines == nil ? nil : code
        switch source {
        case let .latitudeLongitude(latitude, longitude):
            parentKeys = latitude.components.dropLast().map { document.key($0) }
            firstKey = document.key(latitude.components.last!)
            secondKey = document.key(longitude.components.last!)
        case let .pair(path), let .geometry(path):
            parentKeys = path.components.dropLast().map { document.key($0) }
            firstKey = document.key(path.components.last!)
            secondKey = .absent
        case nil:
            parentKeys = []
            firstKey = .absent
            secondKey = .absent
        }
        codeKey = codeField.map { document.key($0) } ?? .absent
        nameKey = document.key(dataset.layout.nameField)
    }

    /// Whether any record can be placed.
    public var canLocate: Bool { source != nil || codeField != nil }

    /// Where the record at `row` is: its country's outline before a point (a country's
    /// latlng), a geometry of its own (a loaded FeatureCollection's) before the outline.
    @inline(__always)
    public func locate(row: Int) -> Location {
        if case .geometry? = source {
            let own = coordinates(row: row)
            if case .none = own {} else { return own }
        }
        let document = dataset.document
        let record = dataset.records[row]
        if let outlines, codeField != nil, let code = document.member(codeKey, of: record), document.kind(at: code) == .string {
            let name = document.member(nameKey, of: record).map { document.kind(at: $0) == .string ? document.string(at: $0) : "" } ?? ""
            if let index = outlines.outline(code: document.string(at: code), name: name) {
                return .shapes(outlines.outlines[index].shapes, node: nil, outline: index)
            }
        }
        if case .geometry? = source { return .none }
        return coordinates(row: row)
    }

    /// Where the record's own fields put it.
    @inline(__always)
    private func coordinates(row: Int) -> Location {
        let document = dataset.document
        let record = dataset.records[row]
        guard let source else { return .none }
        var parent = record
        for key in parentKeys {
            guard let child = document.member(key, of: parent) else { return .none }
            parent = child
        }
        switch source {
        case .latitudeLongitude:
            guard let latitudeNode = document.member(firstKey, of: parent),
                  let longitudeNode = document.member(secondKey, of: parent) else { return .none }
            guard let latitude = number(latitudeNode), let longitude = number(longitudeNode) else {
                return document.kind(at: latitudeNode) == .null || document.kind(at: longitudeNode) == .null ? .none : .invalid
            }
            let point = GeoPoint(latitude: latitude, longitude: longitude)
            return point.isValid ? .point(point) : .invalid
        case .pair:
            guard let pair = document.member(firstKey, of: parent), document.kind(at: pair) == .array else { return .none }
            guard document.count(at: pair) >= 2 else { return document.count(at: pair) == 0 ? .none : .invalid }
            let first = pair + 2
            guard let latitude = number(first), let longitude = number(document.end(of: first)) else { return .invalid }
            let point = GeoPoint(latitude: latitude, longitude: longitude)
            return point.isValid ? .point(point) : .invalid
        case .geometry:
            guard let node = document.member(firstKey, of: parent), document.kind(at: node) != .null else { return .none }
            guard let shapes = GeoShapes.read(document, node) else { return .invalid }
            if shapes.lines.isEmpty, shapes.polygons.isEmpty, shapes.points.count == 1 { return .point(shapes.points[0]) }
            return .shapes(shapes, node: node, outline: nil)
        }
    }

    /// A number, or a number written as text (`"55.75"`).
    @inline(__always)
    private func number(_ node: Int) -> Double? {
        let document = dataset.document
        switch document.kind(at: node) {
        case .number: return document.number(at: node)
        case .string: return NumericText.value(of: document.string(at: node))
        default: return nil
        }
    }

    // MARK: - Detection

    /// How many records are looked at to find the coordinate fields.
    static let sampleSize = 1000

    /// The coordinate source most sampled records have (a geometry before latitude and
    /// longitude fields before a pair), and the outline code field.
    static func detect(in dataset: Dataset) -> (Source?, String?) {
        let document = dataset.document
        let count = dataset.count
        let rows = count <= sampleSize ? Array(0..<count) : (0..<sampleSize).map { $0 * count / sampleSize }
        var votes: [Source: Int] = [:]
        var code: String?
        for row in rows {
            let record = dataset.records[row]
            var found = Set<Source>()
            visit(document, record, path: [], depth: 0, into: &found)
            for source in found { votes[source, default: 0] += 1 }
            if code == nil {
                code = codeNames.first { name in document.member(name, of: record).map { document.kind(at: $0) == .string } ?? false }
            }
        }
        func rank(_ source: Source) -> Int {
            switch source {
            case .geometry: 0
            case .latitudeLongitude: 1
            case .pair: 2
            }
        }
        let best = votes.sorted { ($0.value, -rank($0.key), $1.key.description) > ($1.value, -rank($1.key), $0.key.description) }.first?.key
        return (best, code)
    }

    private static func visit(_ document: JSONDocument, _ node: Int, path: [String], depth: Int, into found: inout Set<Source>) {
        guard document.kind(at: node) == .object, depth <= 3 else { return }
        var latitude: String?
        var longitude: String?
        for member in document.members(of: node) {
            let key = document.string(at: member.key)
            let lowered = key.lowercased()
            let value = member.value
            switch document.kind(at: value) {
            case .number, .string:
                if latitudeNames.contains(lowered), isNumber(document, value) { latitude = key }
                if longitudeNames.contains(lowered), isNumber(document, value) { longitude = key }
            case .array:
                if pairNames.contains(lowered), document.count(at: value) >= 2, document.kind(at: value + 2) == .number {
                    found.insert(.pair(FieldPath(components: path + [key])))
                }
            case .object:
                if lowered == "geometry", let type = document.member("type", of: value), document.kind(at: type) == .string,
                   geometryTypes.contains(document.string(at: type)) {
                    found.insert(.geometry(FieldPath(components: path + [key])))
                } else {
                    visit(document, value, path: path + [key], depth: depth + 1, into: &found)
                }
            default:
                break
            }
        }
        if let latitude, let longitude {
            found.insert(.latitudeLongitude(latitude: FieldPath(components: path + [latitude]),
                                            longitude: FieldPath(components: path + [longitude])))
        }
    }

    private static func isNumber(_ document: JSONDocument, _ node: Int) -> Bool {
        document.kind(at: node) == .number || (document.kind(at: node) == .string && NumericText.value(of: document.string(at: node)) != nil)
    }
}

extension GeoLocator.Source: Hashable {}
