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
        for key in members {
            guard let value = document.member(key, of: node) else { continue }
            switch document.kind(at: value) {
            case .number: return value
            case .string where !ValueText.isAbsent(stringAt: value, in: document): return value
            default: continue
            }
        }
        return nil
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
    /// Calls `body` with each whole value `path` reaches in the record at `row`: as
    /// `forEachValue`, but an object at the end is one value (its node), not its members'
    /// values, and a list of objects gives each object. What `group`, `describe` and
    /// listings read, so a record with an object counts once.
    public func forEachWholeValue(of path: CompiledPath, row: Int, _ body: (FieldValue) -> Void) {
        if path.derived != nil {
            forEachValue(of: path, row: row, body)
            return
        }
        visitWhole(records[row], depth: 0, keys: path.spellings ?? path.keys.map { [$0] }, body)
    }

    private func visitWhole(_ node: Int, depth: Int, keys: [[JSONDocument.Key]], _ body: (FieldValue) -> Void) {
        switch document.kind(at: node) {
        case .object:
            if depth < keys.count {
                for key in keys[depth] {
                    if let value = document.member(key, of: node) { visitWhole(value, depth: depth + 1, keys: keys, body) }
                }
            } else {
                body(.node(node))
            }
        case .array:
            var child = node + 2
            for _ in 0..<document.count(at: node) {
                visitWhole(child, depth: depth, keys: keys, body)
                child = document.end(of: child)
            }
        default:
            if depth == keys.count { body(.node(node)) }
        }
    }
}
