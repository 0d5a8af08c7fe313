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
        // A record's members come from two objects (a document's objects are contiguous runs
        // of nodes), so each record's nodes are copied from the Feature's into new ones; the
        // strings and number literals stay where they are, in the same arena. (Written out and
        // parsed again, a 60 MB FeatureCollection took 0.9 s and 170 MB more.)
        var copy = NodeCopy(document)
        copy.nodes.reserveCapacity(document.nodes.count)
        let list = copy.open(.array)
        for (offset, feature) in features.enumerated() {
            if offset & 0x3FFF == 0, cancellation.isCancelled { throw .cancelled }
            record(of: feature, in: document, into: &copy)
        }
        copy.close(list, count: features.count)
        return document.sharingStrings(nodes: copy.nodes, roots: [0], repeatedKeys: copy.repeatedKeys)
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
    static func record(of feature: Int, in document: JSONDocument, into copy: inout NodeCopy) {
        guard isObject(feature, ofType: "Feature", in: document) else {
            copy.append(feature)
            return
        }
        let properties = document.member("properties", of: feature).flatMap { document.kind(at: $0) == .object ? $0 : nil }
        let record = copy.open(.object)
        var written = 0
        func add(_ member: (key: Int, value: Int)) {
            copy.append(member.key)
            copy.append(member.value)
            written += 1
        }
        func ownMember(_ name: String) -> (key: Int, value: Int)? {
            guard properties.flatMap({ document.member(name, of: $0) }) == nil else { return nil }
            return document.members(of: feature).first { document.string(at: $0.key) == name }
        }
        if let id = ownMember("id"), document.kind(at: id.value) != .null { add(id) }
        for member in properties.map({ document.members(of: $0) }) ?? [] { add(member) }
        if let geometry = ownMember("geometry"), document.kind(at: geometry.value) != .null { add(geometry) }
        copy.close(record, count: written)
        // A key the Feature or its properties repeated is the record's warning now.
        copy.moveRepeatedKeys(of: [feature] + (properties.map { [$0] } ?? []), to: record)
    }
}

/// New nodes made of another document's: whole values copied (their containers' ends moved
/// with them), and containers opened and closed around them.
struct NodeCopy {
    let document: JSONDocument
    var nodes: [UInt64] = []
    /// The source's repeated keys by object, moved to the copies' nodes as values are copied.
    private var repeatedBySource: [Int: [RepeatedKey]]
    private(set) var repeatedKeys: [RepeatedKey] = []

    init(_ document: JSONDocument) {
        self.document = document
        repeatedBySource = Dictionary(grouping: document.repeatedKeys, by: \.object)
    }

    /// Starts a container; `close` gives its count and end.
    mutating func open(_ kind: JSONDocument.Kind) -> Int {
        nodes.append(UInt64(kind.rawValue) << JSONDocument.tagShift)
        nodes.append(0)
        return nodes.count - 2
    }

    mutating func close(_ container: Int, count: Int) {
        nodes[container] |= UInt64(count)
        nodes[container + 1] = UInt64(nodes.count)
    }

    /// Copies the value at `source` with everything in it.
    mutating func append(_ source: Int) {
        let end = document.end(of: source)
        let start = nodes.count
        for index in source..<end { nodes.append(document.node(index)) }
        // Container ends are node indices: they move by as much as the value did.
        let shift = start - source
        var index = start
        while index < nodes.count {
            switch JSONDocument.kind(ofWord: nodes[index]) {
            case .array, .object:
                nodes[index + 1] = UInt64(Int(nodes[index + 1]) + shift)
                if !repeatedBySource.isEmpty { moveRepeatedKeys(of: [index - shift], to: index) }
                index += 2
            case .number: index += 2
            default: index += 1
            }
        }
    }

    mutating func moveRepeatedKeys(of sources: [Int], to object: Int) {
        guard !repeatedBySource.isEmpty else { return }
        for source in sources {
            for var repeated in repeatedBySource.removeValue(forKey: source) ?? [] {
                repeated.object = object
                repeatedKeys.append(repeated)
            }
        }
    }
}
