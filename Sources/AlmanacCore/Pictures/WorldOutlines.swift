import Synchronization

/// The country outlines a map is drawn over: a GeoJSON FeatureCollection whose features have
/// `properties.iso_a3`, `properties.name` and a Polygon or MultiPolygon (the bundled
/// `world.geojson`, Natural Earth 1:110m), read with almanac's own JSON reader.
public struct WorldOutlines: Sendable {
    public struct Outline: Sendable {
        public var name: String
        /// ISO 3166-1 alpha-3, or Natural Earth's `-99` for places without one (Kosovo).
        public var code: String
        public var shapes: GeoShapes
        public var box: GeoBox
        /// The node of the feature's geometry in `document`, written back as it came.
        public var geometry: Int
    }

    public let source: String
    public let document: JSONDocument
    public let outlines: [Outline]
    /// Features left out: no usable Polygon or MultiPolygon.
    public let skipped: Int
    private let byCode: [String: Int]

    public init(document: JSONDocument, source: String) throws(LoadFailure) {
        guard let root = document.roots.first, document.kind(at: root) == .object,
              let features = document.member("features", of: root), document.kind(at: features) == .array else {
            throw .shape(source: source, message: "expected a GeoJSON FeatureCollection with a 'features' list")
        }
        var outlines: [Outline] = []
        var skipped = 0
        for feature in document.elements(of: features) {
            let properties = document.value(at: feature)["properties"]
            guard let geometry = document.member("geometry", of: feature), let shapes = GeoShapes.read(document, geometry),
                  !shapes.polygons.isEmpty else {
                skipped += 1
                continue
            }
            outlines.append(Outline(name: properties?["name"]?.string ?? "", code: properties?["iso_a3"]?.string ?? "",
                                    shapes: shapes, box: shapes.box, geometry: geometry))
        }
        self.source = source
        self.document = document
        self.outlines = outlines
        self.skipped = skipped
        var byCode: [String: Int] = [:]
        for (index, outline) in outlines.enumerated() where Self.isCode(outline.code) && byCode[outline.code.uppercased()] == nil {
            byCode[outline.code.uppercased()] = index
        }
        self.byCode = byCode
    }

    /// The outline of a country by its alpha-3 code, or, for outlines without a code
    /// (Natural Earth's `-99`), by a name the country's name contains: Kosovo is `UNK` in
    /// REST Countries and `-99` in Natural Earth.
    public func outline(code: String, name: String) -> Int? {
        if let index = byCode[code.uppercased()] { return index }
        let folded = Folding.fold(name)
        return outlines.firstIndex { !Self.isCode($0.code) && !$0.name.isEmpty && folded.contains(Folding.fold($0.name)) }
    }

    static func isCode(_ text: String) -> Bool { text.utf8.count == 3 && text.allSatisfy { $0.isASCII && $0.isLetter } }

    /// Reads a file (`Data/world.geojson`).
    public static func load(path: String) throws(LoadFailure) -> WorldOutlines {
        let (document, _, _) = try DatasetLoader().parse(.file(path: path), progress: LoadProgress(), cancellation: .never)
        return try WorldOutlines(document: document, source: path)
    }

    private static let cache = Mutex<[String: WorldOutlines]>([:])

    /// The outlines of `path`, read once per process.
    public static func shared(path: String) throws(LoadFailure) -> WorldOutlines {
        if let known = cache.withLock({ $0[path] }) { return known }
        let outlines = try load(path: path)
        cache.withLock { $0[path] = outlines }
        return outlines
    }
}
