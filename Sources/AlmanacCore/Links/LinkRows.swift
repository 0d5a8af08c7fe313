/// A dataset in memory as rows a database can join: each link key (as `LinkLookup` keys it:
/// numbers by their digits) with the values of one field of the record it belongs to, as text.
/// A path from an attached table into a small dataset in memory sends these as a VALUES list.
public struct LinkRows: Sendable {
    /// One key and its record's present values of the field (one at most unless `type` is a list).
    public struct Row: Sendable {
        public let key: String
        public let values: [String]
    }

    public let rows: [Row]
    /// The field's type as memory reads it (text for the records' names).
    public let type: ValueType

    /// The rows of `dataset` by the keys in `keyField`, with `field`'s values (nil: the
    /// records' names, or a path across more links of memory). `path` is the whole path, for
    /// errors worded as memory words them.
    public static func read(_ dataset: Dataset, keyField: String, field: String?, path: String, cancellation: Cancellation) throws -> LinkRows {
        // A dataset's own fields never change (a reload is another dataset): read once per
        // query's worth of statements. A path onward reads other datasets, so is read afresh.
        let own = try field.map { try DatasetFields(dataset, catalog: dataset.fields(cancellation: cancellation)).field($0) } ?? nil
        if field == nil || own?.container == false {
            let key = CacheKey<LinkRows>("link-rows:\(keyField)\u{1}\(field ?? "")")
            return try dataset.cached(key, cancellation: cancellation) { cancellation in
                try? compute(dataset, keyField: keyField, field: field, path: path, cancellation: cancellation)
            }
        }
        return try compute(dataset, keyField: keyField, field: field, path: path, cancellation: cancellation)
    }

    private static func compute(_ dataset: Dataset, keyField: String, field: String?, path: String, cancellation: Cancellation) throws -> LinkRows {
        let all = Array(0..<dataset.count)
        let values: ValueVector
        var type = ValueType.text
        if let field {
            let catalog = try dataset.fields(cancellation: cancellation)
            if let found = DatasetFields(dataset, catalog: catalog).field(field), !found.container {
                type = found.type
                values = try FieldReader(dataset: dataset, catalog: catalog, rows: all, cancellation: cancellation)
                    .read(field, type: found.type, container: false)
            } else if let onward = try LinkPath.resolve(field, from: dataset, cancellation: cancellation), !onward.container {
                // Across more links in memory: computed there, as memory computes the path.
                type = onward.type
                values = try LinkGather.values(onward, rows: all, cancellation: cancellation)
            } else {
                let rest = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                throw LinkPath.notALink(rest, in: dataset, links: dataset.links(from: dataset.name), fields: catalog, whole: path, crossed: true)
                    ?? QueryError.unknownField(path, suggestion: nil)
            }
        } else {
            values = ValueVector(.texts(dataset.names), type: .text)
        }
        let keyPath = dataset.compile(FieldPath(keyField), derived: false)
        var rows: [Row] = []
        for row in all {
            if row & 0xFFF == 0 { try cancellation.checkpoint() }
            let texts = values.range(of: row).compactMap { values.text(at: $0) }
            var keys: [String] = []
            dataset.forEachValue(of: keyPath, row: row) { value in
                let key = LinkLookup.key(dataset.text(of: value))
                if !keys.contains(key) { keys.append(key) }
            }
            rows += keys.map { Row(key: $0, values: texts) }
        }
        return LinkRows(rows: rows, type: type)
    }
}
