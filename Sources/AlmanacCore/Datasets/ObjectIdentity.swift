/// How a nested object reads as one value — in `group`, `describe`, a listing's cell: by the
/// member that names it (`title`, then `name`, `login`, `id`), as GitHub's milestone is its
/// title and its user their login; else as its JSON text. Two objects with the same name are
/// one value (a milestone is v2.0 whatever its due date), and a record with an object counts
/// once, not once per member.
public enum ObjectIdentity {
    public static let members = ["title", "name", "login", "id"]

    /// The member that names the object at `node`: a string or number that is present.
    public static func member(of node: Int, in document: JSONDocument) -> Int? {
        guard document.kind(at: node) == .object else { return nil }
        return member(of: node, in: document, keys: keys(in: document))
    }

    /// `members` prepared for `document`'s objects, for `member(of:in:keys:)` over many rows.
    public static func keys(in document: JSONDocument) -> [JSONDocument.Key] { members.map(document.key) }

    /// `member(of:in:)` with the keys prepared once (`keys(in:)`): node words compared, no text.
    public static func member(of node: Int, in document: JSONDocument, keys: [JSONDocument.Key]) -> Int? {
        guard document.kind(at: node) == .object else { return nil }
        for key in keys {
            if let value = document.member(key, of: node), names(value, in: document) { return value }
        }
        return nil
    }

    private static func names(_ value: Int, in document: JSONDocument) -> Bool {
        switch document.kind(at: value) {
        case .number: return true
        case .string: return !ValueText.isAbsent(stringAt: value, in: document)
        default: return false
        }
    }

    /// The object's name, or its JSON text; nil for an empty object (no value).
    public static func text(of node: Int, in document: JSONDocument) -> String? {
        if let member = member(of: node, in: document) { return document.string(at: member) }
        return document.count(at: node) == 0 ? nil : JSONWriter.string(document.value(at: node))
    }

    /// The key of the member that names most of these objects (`login` for GitHub's users),
    /// for a listing's column (`user.login`); nil when none names them.
    public static func namingKey(of objects: [Int], in document: JSONDocument) -> String? {
        var counts: [String: Int] = [:]
        for object in objects {
            guard let member = member(of: object, in: document) else { continue }
            counts[document.string(at: member - 1), default: 0] += 1
        }
        return members.max { counts[$0, default: 0] < counts[$1, default: 0] }.flatMap { counts[$0, default: 0] > 0 ? $0 : nil }
    }
}

extension Dataset {
    /// Calls `body` with each value a comparison (`filter FIELD = VALUE`) reads where `path`
    /// ends in the record at `row`: as `forEachValue`, but an object there (or each object of
    /// a list there) that a member names is that member's value — the milestone v2.0, the user
    /// octocat — as group, describe and listings read it, so `milestone = 2024-06-30` no longer
    /// matches a due date. An object nothing names gives its members' values, as before: its
    /// JSON text is nothing to type, and a database writes it otherwise. `naming`:
    /// `ObjectIdentity.keys(in: document)`, prepared once for many rows.
    public func forEachComparedValue(of path: CompiledPath, row: Int, naming: [JSONDocument.Key],
                                     _ body: (FieldValue) -> Void) {
        if path.derived != nil { return forEachValue(of: path, row: row, body) }
        visit(records[row], depth: 0, keys: path.lookups, objects: .named(naming), body)
    }

    public func comparedValues(of path: CompiledPath, row: Int) -> [FieldValue] {
        var values: [FieldValue] = []
        forEachComparedValue(of: path, row: row, naming: ObjectIdentity.keys(in: document)) { values.append($0) }
        return values
    }
}

/// How `Dataset.visit` reads an object where a path ends: its members' values
/// (`forEachValue`), the object itself (`forEachWholeValue`: group, describe, listings), or
/// the member that names it, else its members (`forEachComparedValue`: `milestone = v2.0`).
enum ObjectReading {
    case members
    case whole
    case named([JSONDocument.Key])
}
