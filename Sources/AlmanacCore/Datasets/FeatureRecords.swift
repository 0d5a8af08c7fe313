/// A GeoJSON FeatureCollection, or a file of one Feature per line (NDJSON, or a GeoJSON text
/// sequence, RFC 8142), read as the records it holds: each Feature's `properties` are
/// the record's fields — what `export FILE.geojson` wrote from a record —, so the name field,
/// columns, search and `show` see them, not `type` and `Feature`. The Feature's `geometry` is
/// kept beside them as a `geometry` field, which `GeoLocator` reads: near, within and map still
/// place the record, and `export FILE.geojson` writes it back as the Feature's geometry.
enum FeatureRecords {
    /// `document` rewritten as an array of records, or nil when it is not one FeatureCollection
    /// nor lines of Features (`load … at features` still gives the Features as they are).
    static func records(of document: JSONDocument, source: String, cancellation: Cancellation) throws(LoadFailure) -> JSONDocument? {
        guard let features = features(in: document) ?? featureLines(of: document) else { return nil }
        // Written out and parsed again: a document's objects are contiguous runs of nodes, and a
        // record's members come from two objects. Numbers keep their source literal.
        var writer = JSONWriter()
        writer.append("[")
        for (offset, feature) in features.enumerated() {
            if offset & 0x3FFF == 0, cancellation.isCancelled { throw .cancelled }
            if offset > 0 { writer.append(",\n") }
            record(of: feature, in: document, into: &writer)
        }
        writer.append("]")
        var builder = JSONDocumentBuilder(expectedBytes: writer.bytes.count)
        let parsed: Result<Int, LoadFailure> = writer.bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(LoadFailure) in try JSONParser.parse(bytes, source: source, into: &builder) }
        }
        _ = try parsed.get()
        return builder.finish()
    }

    /// The Features of a FeatureCollection document.
    static func features(in document: JSONDocument) -> [Int]? {
        guard !document.isLines, document.roots.count == 1, let root = document.roots.first, isObject(root, ofType: "FeatureCollection", in: document),
              let features = document.member("features", of: root), document.kind(at: features) == .array else { return nil }
        return document.elements(of: features)
    }

    /// The lines of a file of lines whose first is a Feature (the others are taken as they come).
    static func featureLines(of document: JSONDocument) -> [Int]? {
        guard document.isLines, let first = document.roots.first, isObject(first, ofType: "Feature", in: document) else { return nil }
        return document.roots
    }

    static func isObject(_ node: Int, ofType type: String, in document: JSONDocument) -> Bool {
        guard document.kind(at: node) == .object, let member = document.member("type", of: node) else { return false }
        return document.kind(at: member) == .string && document.string(at: member) == type
    }

    /// A Feature as `{id?, …properties, geometry}`: the Feature's `id` (RFC 7946 §3.2) first,
    /// when its properties have none, so `show ID` finds it; no geometry member for a `null`
    /// one. A member of the properties wins over the Feature's of the same name. Anything that
    /// is not a Feature is left as it is, for the load to warn about or take as it is.
    static func record(of feature: Int, in document: JSONDocument, into writer: inout JSONWriter) {
        guard isObject(feature, ofType: "Feature", in: document) else {
            writer.write(document, feature)
            return
        }
        let properties = document.member("properties", of: feature).flatMap { document.kind(at: $0) == .object ? $0 : nil }
        var written = 0
        func add(_ key: Int, _ value: Int) {
            writer.append(written == 0 ? "{" : ",")
            writer.write(document, key)
            writer.append(":")
            writer.write(document, value)
            written += 1
        }
        func ownMember(_ name: String) -> (key: Int, value: Int)? {
            guard properties.flatMap({ document.member(name, of: $0) }) == nil else { return nil }
            return document.members(of: feature).first { document.string(at: $0.key) == name }
        }
        if let id = ownMember("id"), document.kind(at: id.value) != .null { add(id.key, id.value) }
        for member in properties.map({ document.members(of: $0) }) ?? [] { add(member.key, member.value) }
        if let geometry = ownMember("geometry"), document.kind(at: geometry.value) != .null { add(geometry.key, geometry.value) }
        writer.append(written == 0 ? "{}" : "}")
    }
}
