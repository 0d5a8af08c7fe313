import AlmanacCore

/// A path from a table across one link into a dataset in memory (`homeworld.climate` after
/// `link pp.homeworld to planets.url`, planets bundled): the dataset's keys and the field the
/// path reads are sent as a VALUES list, every value a parameter, and joined as a table would
/// be — so filter, sort, columns and group still run in the database. Only a small dataset
/// is sent: a statement carries at most `maximumKeys` of them.
extension LinkHop {
    /// More keys than this and the path is refused: the database is no place for a copy of a big dataset.
    static let maximumKeys = 10_000

    /// The path's reference when its first hop, `link`, leads into `dataset` in memory, and
    /// `rest` names one of its fields (or nothing: the records by name).
    static func intoMemory(_ link: LinkDefinition, dataset: Dataset, catalog: Catalog, from source: TableSchema, rest: [String],
                           path: String) throws -> FieldReference {
        guard case let .key(key) = link.match else {
            throw QueryError.invalid("'\(path)' crosses \(link.from).\(link.name), which matches by country names — only in memory")
        }
        let ownField = link.isReverse ? key : link.field
        guard let ownIndex = source.column(named: ownField), source.columns[ownIndex].kind != .json else {
            throw QueryError.invalid("'\(path)' crosses \(link.from).\(link.name): a join needs a plain column (not JSON) on the table's side")
        }
        let field = rest.isEmpty ? nil : rest.joined(separator: ".")
        if rest.count > 1 { _ = try catalog.awaitLinkedDatasets(from: link.to, cancellation: .never) }
        let rows = try LinkRows.read(dataset, keyField: link.isReverse ? link.field : key, field: field, path: path, cancellation: .never)
        guard rows.rows.count <= maximumKeys else {
            throw QueryError.invalid("'\(path)' crosses \(link.from).\(link.name) into \(link.to), which is in memory with "
                + "\(NumberFormat.grouped(Double(rows.rows.count), decimals: 0)) keys — a path from a table sends at most \(NumberFormat.grouped(Double(maximumKeys), decimals: 0)) to the database "
                + "(attach \(link.to) as a table there, or load this table into memory)")
        }
        let sentKey = TableSchema.Column(name: link.isReverse ? link.field : key, quoted: "\"key\"", typeName: "text", kind: .text,
                                         isArray: false, notNull: false)
        let element = rows.type.element
        let (kind, typeName): (TableSchema.ValueKind, String) = element == .number ? (.number, "numeric")
            : element == .boolean ? (.boolean, "boolean") : (.text, "text")
        let value = TableSchema.Column(name: field ?? dataset.layout.nameField, quoted: "\"value\"", typeName: typeName, kind: kind,
                                       isArray: rows.type.isList, notNull: false)
        let own = source.columns[ownIndex]
        let hop = LinkHop(target: nil, sent: rows, key: link.isReverse ? own : sentKey, keys: link.isReverse ? sentKey : own,
                          isReverse: link.isReverse)
        return FieldReference(field: path, column: value, path: [], hops: [hop])
    }

    /// The hop's rows in a FROM clause as `alias`: the table, or the VALUES sent for a dataset in memory.
    func fromItem(_ alias: String) -> SQL {
        guard let sent else { return SQL((target?.quotedName ?? "") + " AS " + alias) }
        let isList = sent.type.isList
        let element = sent.type.element
        let type = (element == .number ? "numeric" : element == .boolean ? "boolean" : "text") + (isList ? "[]" : "")
        var sql = SQL("(VALUES ")
        for (index, row) in sent.rows.enumerated() {
            sql.append(index == 0 ? "(" : ", (")
            sql.bind(row.key)
            sql.append(", ")
            sql.bind(isList ? Self.arrayLiteral(row.values) : row.values.first, as: type)
            sql.append(")")
        }
        if sent.rows.isEmpty { sql.append("(NULL::text, NULL::\(type))") }
        sql.append(") AS \(alias)(\"key\", \"value\")")
        return sql
    }

    /// `{"a","b \"c\""}`: a PostgreSQL array literal, every element quoted.
    static func arrayLiteral(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
