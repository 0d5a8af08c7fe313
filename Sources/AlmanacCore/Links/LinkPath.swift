/// A dotted path that crosses links: `homeworld.climate` from people is the `homeworld` link
/// into planets, then planets' `climate`; `species.homeworld.climate` crosses two. A path that
/// ends at a link (`count(stations)`) reads the linked records by their names. Resolved once,
/// against the datasets as they are; `LinkGather` computes it over columns.
public struct LinkPath: @unchecked Sendable, CustomStringConvertible {
    /// One crossing: from a dataset, through a link, into its target.
    public struct Hop: @unchecked Sendable {
        public let link: LinkDefinition
        public let source: Dataset
        public let target: Dataset
        public let index: LinkIndex
        /// Whether a record may lead to several (a list of keys, a link followed backwards).
        public let isMany: Bool
    }

    public let text: String
    public let hops: [Hop]
    /// The field read on the last dataset; nil: the linked records themselves, by name.
    public let field: String?
    /// The field's type on the last dataset (text for names); a list's when any hop is many.
    public let type: ValueType
    /// The field is an object (`is null` asks about it whole).
    public let container: Bool
    /// The field's own type on the last dataset (a list when it holds several).
    let fieldType: ValueType

    public var target: Dataset { hops[hops.count - 1].target }
    public var isList: Bool { type.isList }
    public var description: String { text }

    /// The path `text` from `dataset`, when it crosses a link (nil when its first step is no
    /// link and no field: an unknown field, as before). A step through a field that is not a
    /// link, or to a field the linked dataset lacks, is an error naming it.
    public static func resolve(_ text: String, from dataset: Dataset, cancellation: Cancellation = .never) throws -> LinkPath? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { return nil }
        var hops: [Hop] = []
        var current = dataset
        var rest = parts[...]
        while true {
            let fields = try current.fields(cancellation: cancellation)
            let remaining = rest.joined(separator: ".")
            if !hops.isEmpty, FieldLookup.field(remaining, in: fields) != nil {
                return try finish(text, hops: hops, field: remaining, catalog: fields)
            }
            let links = current.links(from: current.name)
            // The longest beginning that names a link (a declared link's field may be dotted).
            guard let (link, length) = stride(from: rest.count, through: 1, by: -1).lazy.compactMap({ length -> (LinkDefinition, Int)? in
                let name = rest.prefix(length).joined(separator: ".")
                return (links.first { $0.name == name } ?? links.first { $0.name.lowercased() == name.lowercased() }).map { ($0, length) }
            }).first else {
                if hops.isEmpty, parts.count == 1 { return nil }
                guard let error = notALink(Array(rest), in: current, links: links, fields: fields, whole: text, crossed: !hops.isEmpty) else {
                    return nil
                }
                throw error
            }
            guard let target = current.neighbour(link.to) else {
                throw QueryError.invalid("'\(text)' crosses \(link.from).\(link.name) into \(link.to), which is not in memory "
                    + "(an attached table, or not loaded) — a path from a dataset in memory follows links into datasets in memory")
            }
            let index = LinkIndex.of(link, from: current, to: target)
            let many = link.isReverse || FieldLookup.field(link.field, in: fields)?.inList == true || index.hasSeveral
            hops.append(Hop(link: link, source: current, target: target, index: index, isMany: many))
            guard hops.count <= maximumHops else {
                throw QueryError.invalid("'\(text)' crosses more than \(maximumHops) links — write a shorter path")
            }
            rest = rest.dropFirst(length)
            current = target
            if rest.isEmpty { return try finish(text, hops: hops, field: nil, catalog: try target.fields(cancellation: cancellation)) }
        }
    }

    /// Checks `PATH OP VALUE` as filters check a field (`homeworld.diameter = big` is an error).
    public func checkComparison(_ op: FilterExpression.Operator, _ value: String) throws {
        let catalog = try target.fields(cancellation: .never)
        guard field != nil || catalog.field(target.layout.nameField) != nil else { return }
        do {
            try Filter.validate(.comparison(field: field ?? target.layout.nameField, op: op, value: value), against: [catalog])
        } catch let QueryError.typeMismatch(_, type, message) {
            throw QueryError.typeMismatch(field: text, type: isList && !type.hasPrefix("list") ? "list of \(type)" : type, message: message)
        }
    }

    /// Paths are finite, cycles included; this many crossings is more than any question needs.
    public static let maximumHops = 16

    private static func finish(_ text: String, hops: [Hop], field: String?, catalog: FieldCatalog) throws -> LinkPath {
        let target = hops[hops.count - 1].target
        var fieldType = ValueType.text
        var container = false
        if let field, let found = DatasetFields(target, catalog: catalog).field(field) {
            fieldType = found.type
            container = found.container
        }
        let many = fieldType.isList || hops.contains { $0.isMany }
        return LinkPath(text: text, hops: hops, field: field, type: many ? .list(fieldType.element) : fieldType, container: container,
                        fieldType: fieldType)
    }

    /// `'name' is not a link of people — its links are homeworld, species`, with the link
    /// closest to what was typed; or, past a link, the field the linked dataset lacks. Nil
    /// where the path is no more than an unknown field (a key inside an object, a typo).
    static func notALink(_ rest: [String], in dataset: Dataset, links: [LinkDefinition], fields: FieldCatalog, whole: String,
                         crossed: Bool) -> QueryError? {
        let names = links.map(\.name)
        let listed = names.isEmpty ? "\(dataset.name) has no links ('link' declares one)" : "the links of \(dataset.name) are " + names.joined(separator: ", ")
        // The longest beginning that is a field of the dataset, and whether it is a leaf (not an object).
        let field = stride(from: rest.count - 1, through: 1, by: -1).lazy.map { rest.prefix($0).joined(separator: ".") }
            .first { FieldLookup.field($0, in: fields) != nil }
        // An object (its keys are fields too) is no leaf: `translations.xx` is an unknown key.
        let isLeaf = field.map { field in
            let spelling = FieldLookup.canonical(field)
            return fields.paths.contains { FieldLookup.canonical($0) == spelling }
                && !fields.paths.contains { FieldLookup.canonical($0).hasPrefix(spelling + ".") }
        } ?? false
        if let field, isLeaf {
            let guess = Suggestion.closest(to: field, among: names).map { " — did you mean '\($0)'?" } ?? ""
            return .notALink(path: whole, message: "in '\(whole)', \(field) is a field of \(dataset.name), not a link; \(listed)\(guess)")
        }
        if crossed {
            let all = FieldLookup.names(in: fields) + names
            let remaining = rest.joined(separator: ".")
            let guess = Suggestion.closest(to: remaining, among: all) ?? Suggestion.closest(to: rest[0], among: all)
            return .notALink(path: whole, message: "in '\(whole)', \(dataset.name) has no field or link '\(remaining)'"
                + (guess.map { " — did you mean '\($0)'?" } ?? " — 'fields' lists them"))
        }
        // Inside an object (`translations.xx`), or a word like no link: an unknown field, as before.
        guard field == nil, let guess = Suggestion.closest(to: rest[0], among: names) else { return nil }
        return .notALink(path: whole, message: "in '\(whole)', '\(rest[0])' is no field or link of \(dataset.name); \(listed) — did you mean '\(guess)'?")
    }
}

extension LinkIndex {
    /// Whether some record leads to more than one.
    var hasSeveral: Bool {
        var previous = offsets.first ?? 0
        for offset in offsets.dropFirst() {
            if offset - previous > 1 { return true }
            previous = offset
        }
        return false
    }
}
