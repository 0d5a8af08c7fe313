/// Records under a key: an API's answer often wraps its list (`{"data": {"items": [...]}}`).
/// `load … at data.items` names the list; without it, the largest array of objects a few
/// levels into the object is taken, and the load says which.
enum RecordsLocation {
    /// How deep into objects the search looks (`data.items` is 2).
    static let searchDepth = 4

    /// The array of objects with the most elements under the object `root`, looking into
    /// objects (not arrays) up to `searchDepth` keys down; the shallower wins a tie, then
    /// the first in the text.
    static func largestArrayOfObjects(in document: JSONDocument, under root: Int) -> (node: Int, path: String)? {
        var best: (node: Int, path: String, count: Int, depth: Int)?
        func visit(_ object: Int, path: [String]) {
            for member in document.members(of: object) {
                let key = document.string(at: member.key)
                let value = member.value
                switch document.kind(at: value) {
                case .array:
                    let count = document.count(at: value)
                    guard count > 0, document.elements(of: value).allSatisfy({ document.kind(at: $0) == .object }) else { continue }
                    if best == nil || count > best!.count || (count == best!.count && path.count + 1 < best!.depth) {
                        best = (value, (path + [key]).joined(separator: "."), count, path.count + 1)
                    }
                case .object where path.count + 1 < searchDepth:
                    visit(value, path: path + [key])
                default:
                    continue
                }
            }
        }
        visit(root, path: [])
        return best.map { ($0.node, $0.path) }
    }

    /// The elements of the array at `path` (dotted keys from the root object).
    static func records(at path: String, in document: JSONDocument, source: String) throws(LoadFailure) -> [Int] {
        guard !document.isLines, document.roots.count == 1, let root = document.roots.first, document.kind(at: root) == .object else {
            let found = document.isLines ? "one record per line (NDJSON)"
                : document.roots.count == 1 ? document.kind(at: document.roots[0]).typeDescription : "one value per line"
            throw .shape(source: source, message: "'at \(path)' needs an object holding the records; found \(found)")
        }
        var node = root
        var walked: [String] = []
        for key in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            guard document.kind(at: node) == .object else {
                throw .shape(source: source, message: "'\(walked.joined(separator: "."))' is \(document.kind(at: node).typeDescription), not an object with '\(key)'")
            }
            guard let value = document.member(key, of: node) else {
                let keys = document.members(of: node).prefix(8).map { document.string(at: $0.key) }
                let place = walked.isEmpty ? "the top-level object" : "'\(walked.joined(separator: "."))'"
                throw .shape(source: source, message: "no '\(key)' in \(place); its keys are \(keys.joined(separator: ", "))")
            }
            walked.append(key)
            node = value
        }
        guard document.kind(at: node) == .array else {
            throw .shape(source: source, message: "'\(path)' is \(document.kind(at: node).typeDescription), not a list of records")
        }
        return document.elements(of: node)
    }
}
