import AlmanacCore
import Synchronization

/// The links a path from a table may cross (`owner_id.name` after `link pets.owner_id to
/// owners.id`): read from the catalog the table is attached to, each into another table of the
/// same database, where the path becomes a join the database runs. A link into a small dataset
/// in memory joins its records sent as a VALUES list (`LinkValuesSQL`); into a big one, or into
/// another database, it is refused: its rows are not where the query runs.
public final class TableLinks: Sendable {
    private struct Place: @unchecked Sendable {
        weak var catalog: Catalog?
        var name = ""
        var endpoint = ""
    }
    private let place = Mutex(Place())

    init() {}

    func attach(to catalog: Catalog, as name: String, endpoint: String) {
        place.withLock { $0 = Place(catalog: catalog, name: name.lowercased(), endpoint: endpoint) }
    }

    /// `field` as a path across links from this table, or nil when its first step is no link
    /// (an unknown field, as before). A step through a column that is no link, or to a field
    /// the linked table lacks, is an error naming it.
    func resolve(_ field: String, from schema: TableSchema) throws -> FieldReference? {
        let place = self.place.withLock { $0 }
        guard let catalog = place.catalog else { return nil }
        let parts = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 || !catalog.links(from: place.name).isEmpty, !parts.contains(where: \.isEmpty) else { return nil }
        var hops: [LinkHop] = []
        var current = (name: place.name, schema: schema)
        var rest = parts[...]
        while true {
            if !hops.isEmpty, let reference = try? FieldReference.resolve(rest.joined(separator: "."), in: current.schema, links: false) {
                return FieldReference(field: field, column: reference.column, path: reference.path, hops: hops)
            }
            let links = catalog.links(from: current.name)
            guard let (link, length) = stride(from: rest.count, through: 1, by: -1).lazy.compactMap({ length -> (LinkDefinition, Int)? in
                let name = rest.prefix(length).joined(separator: ".").lowercased()
                return links.first { $0.name.lowercased() == name }.map { ($0, length) }
            }).first else {
                if hops.isEmpty, parts.count == 1 { return nil }
                return try notALink(Array(rest), from: current.name, schema: current.schema, links: links, whole: field, crossed: !hops.isEmpty)
            }
            guard let target = catalog.table(link.to) as? PostgresTable else {
                guard hops.isEmpty, let dataset = try catalog.dataset(link.to) ?? catalog.awaitLinkedDatasets(from: link.to, cancellation: .never) else {
                    throw QueryError.invalid("'\(field)' crosses \(link.from).\(link.name) into \(link.to), which is in memory, not a table "
                        + "of this database — a path from a table follows links into tables of the same database, or one link into "
                        + "a dataset in memory as its last step (attach \(link.to) from there, or load this table into memory)")
                }
                return try LinkHop.intoMemory(link, dataset: dataset, catalog: catalog, from: current.schema, rest: Array(rest.dropFirst(length)), path: field)
            }
            guard target.endpoint == place.endpoint else {
                throw QueryError.invalid("'\(field)' crosses \(link.from).\(link.name) into \(link.to), a table of another database "
                    + "(\(target.endpoint)) — a path is a join inside one database")
            }
            hops.append(try LinkHop(link, from: current.schema, to: target.schema, path: field))
            guard hops.count <= LinkPath.maximumHops else {
                throw QueryError.invalid("'\(field)' crosses more than \(LinkPath.maximumHops) links — write a shorter path")
            }
            rest = rest.dropFirst(length)
            current = (link.to, target.schema)
            if rest.isEmpty {
                // The linked rows themselves: by the field that names them.
                let name = target.schema.layout.nameField
                guard let index = target.schema.column(named: name) ?? target.schema.primaryKey.first else {
                    throw QueryError.invalid("'\(field)' ends at the link \(link.name): name a field of \(link.to) after it")
                }
                return FieldReference(field: field, column: target.schema.columns[index], path: [], hops: hops)
            }
        }
    }

    /// What TAB offers for a path across links from this table, as memory's `LinkCompletion`
    /// does: without a dot the links, after `owner_id.` the linked table's columns and links
    /// (or, into a dataset in memory, its fields and links, and on from there).
    func completionPaths(continuing fragment: String) -> [(path: String, isLink: Bool)] {
        let place = self.place.withLock { $0 }
        guard let catalog = place.catalog else { return [] }
        guard let dot = fragment.lastIndex(of: ".") else { return catalog.links(from: place.name).map { ($0.name, true) } }
        let head = String(fragment[..<dot])
        var current = place.name
        var steps = head.split(separator: ".", omittingEmptySubsequences: false).map(String.init)[...]
        while !steps.isEmpty {
            let links = catalog.links(from: current)
            guard let (link, length) = stride(from: steps.count, through: 1, by: -1).lazy.compactMap({ length -> (LinkDefinition, Int)? in
                let name = steps.prefix(length).joined(separator: ".").lowercased()
                return links.first { $0.name.lowercased() == name }.map { ($0, length) }
            }).first else { return [] }
            steps = steps.dropFirst(length)
            if catalog.table(link.to) is PostgresTable {
                current = link.to
                continue
            }
            // Into memory: the rest of the path is memory's to continue.
            guard let dataset = catalog.dataset(link.to) else { return [] }
            let crossed = head.split(separator: ".", omittingEmptySubsequences: false).dropLast(steps.count).joined(separator: ".")
            guard !steps.isEmpty else { return LinkCompletion.continuations(of: head, into: dataset) }
            return LinkCompletion.paths(continuing: steps.joined(separator: ".") + String(fragment[dot...]), from: [dataset])
                .map { (crossed + "." + $0.path, $0.isLink) }
        }
        guard let table = catalog.table(current) as? PostgresTable else { return [] }
        let links = catalog.links(from: current).map(\.name)
        return table.schema.columns.map(\.name).filter { !links.contains($0) }.map { (head + "." + $0, false) }
            + links.map { (head + "." + $0, true) }
    }

    private func notALink(_ rest: [String], from name: String, schema: TableSchema, links: [LinkDefinition], whole: String,
                          crossed: Bool) throws -> FieldReference? {
        let names = links.map(\.name)
        let listed = names.isEmpty ? "\(name) has no links ('link' declares one)" : "the links of \(name) are " + names.joined(separator: ", ")
        if let column = schema.column(named: rest[0]), schema.columns[column].kind != .json {
            let guess = Suggestion.closest(to: rest[0], among: names).map { " — did you mean '\($0)'?" } ?? ""
            throw QueryError.notALink(path: whole, message: "in '\(whole)', \(rest[0]) is a field of \(name), not a link; \(listed)\(guess)")
        }
        if crossed {
            let all = schema.columns.map(\.name) + names
            let guess = Suggestion.closest(to: rest.joined(separator: "."), among: all) ?? Suggestion.closest(to: rest[0], among: all)
            throw QueryError.notALink(path: whole, message: "in '\(whole)', \(name) has no field or link '\(rest.joined(separator: "."))'"
                + (guess.map { " — did you mean '\($0)'?" } ?? " — 'fields' lists them"))
        }
        guard let guess = Suggestion.closest(to: rest[0], among: names) else { return nil }
        throw QueryError.notALink(path: whole, message: "in '\(whole)', '\(rest[0])' is no field or link of \(name); \(listed) — did you mean '\(guess)'?")
    }
}

/// One crossing as SQL: from the rows aliased `from` into the target table's rows.
struct LinkHop {
    /// The table the hop leads into; nil for a dataset in memory, joined as `sent`.
    let target: TableSchema?
    let sent: LinkRows?
    /// The key column of the record a forward link leads to (or, backwards, of the record the path is on).
    let key: TableSchema.Column
    /// The column holding keys: in the source going forward, in the target going backwards.
    let keys: TableSchema.Column
    let isReverse: Bool

    /// Whether a record may lead to several.
    var isMany: Bool { isReverse || keys.isArray }

    init(_ link: LinkDefinition, from source: TableSchema, to target: TableSchema, path: String) throws {
        guard case let .key(key) = link.match else {
            throw QueryError.invalid("'\(path)' crosses \(link.from).\(link.name), which matches by country names — only in memory")
        }
        let (keySchema, keysSchema) = link.isReverse ? (source, target) : (target, source)
        guard let keyIndex = keySchema.column(named: key), let keysIndex = keysSchema.column(named: link.field),
              keySchema.columns[keyIndex].kind != .json, keysSchema.columns[keysIndex].kind != .json else {
            throw QueryError.invalid("'\(path)' crosses \(link.from).\(link.name): a join needs plain columns (not JSON) on both sides")
        }
        self.target = target
        self.key = keySchema.columns[keyIndex]
        self.keys = keysSchema.columns[keysIndex]
        isReverse = link.isReverse
        sent = nil
    }

    init(target: TableSchema?, sent: LinkRows?, key: TableSchema.Column, keys: TableSchema.Column, isReverse: Bool) {
        (self.target, self.sent, self.key, self.keys, self.isReverse) = (target, sent, key, keys, isReverse)
    }

    /// The rows of `to` (the target's alias) that `from`'s row leads to: keys compare as the
    /// same kind, else as text (as in memory, where a number matches by its digits).
    func condition(from: String, to: String) -> SQL {
        let (keyAlias, keysAlias) = isReverse ? (from, to) : (to, from)
        var keyColumn = "\(keyAlias).\(key.quoted)"
        var keysColumn = "\(keysAlias).\(keys.quoted)"
        if key.kind != keys.kind || key.kind == .other {
            keyColumn += "::text"
            keysColumn += keys.isArray ? "::text[]" : "::text"
        }
        return SQL(keys.isArray ? "\(keyColumn) = ANY(\(keysColumn))" : "\(keyColumn) = \(keysColumn)")
    }

    /// Where the record `to` leads to stands among `from`'s list of keys (`borders`), so the
    /// linked values come in the list's order, as in memory; nil when the order is the rows'.
    func position(from: String, to: String) -> SQL? {
        guard !isReverse, keys.isArray else { return nil }
        var keyColumn = "\(to).\(key.quoted)"
        var keysColumn = "\(from).\(keys.quoted)"
        if key.kind != keys.kind || key.kind == .other {
            keyColumn += "::text"
            keysColumn += "::text[]"
        }
        return SQL("array_position(\(keysColumn), \(keyColumn))")
    }
}

extension FieldReference {
    /// The linked rows' values: the tables the path crosses, joined, with the first hop's
    /// condition in the WHERE clause (so `EXISTS (SELECT 1 FROM …)` is a semi-join to the
    /// planner, not a subquery per row).
    func linkedSource(aliases: inout Aliases) -> ValueSource {
        var from = SQL()
        var conditions: [SQL] = []
        var order: [SQL] = []
        var previous = "t"
        for (index, hop) in hops.enumerated() {
            let alias = aliases.next("l")
            let condition = hop.condition(from: previous, to: alias)
            if let position = hop.position(from: previous, to: alias) { order.append(position) }
            if index == 0 {
                from.append(hop.fromItem(alias))
                conditions.append(condition)
            } else {
                from.append(" JOIN ")
                from.append(hop.fromItem(alias))
                from.append(" ON ")
                from.append(condition)
            }
            previous = alias
        }
        let final = FieldReference(field: field, column: column, path: path, alias: previous)
        let value: SQL
        let kind: TableSchema.ValueKind
        let typeName: String
        switch final.source(aliases: &aliases) {
        case let .scalar(column, scalarKind, name):
            (value, kind, typeName) = (column, scalarKind, name)
        case let .set(set, _):
            (value, kind, typeName) = (set.value, set.kind, set.typeName)
            from.append(", ")
            from.append(set.from)
            if let condition = set.condition { conditions.append(condition) }
        }
        // As in memory, a list of linked values leaves out the words for none (`n/a`, `unknown`).
        conditions.append(kind == .text ? QueryBuilder.present(value) + " IS NOT NULL" : value + " IS NOT NULL")
        let hop = hops[0]
        let origin = SQL("t." + (hop.isReverse ? hop.key.quoted : hop.keys.quoted))
        return .set(ValueSet(from: from, condition: SQL.joined(conditions, separator: " AND "), value: value, kind: kind, typeName: typeName,
                             order: order),
                    column: origin)
    }
}
