import AlmanacCore
import AlmanacPostgres

/// `sort FIELD [asc|desc][, FIELD [asc|desc]…]` orders the current result set, key after key.
public enum SortCommand: Command {
    public static let spec = CommandSpec(
        name: "sort",
        summary: "Order the results by one or more fields",
        usage: "sort FIELD [asc|desc][, FIELD [asc|desc]...]",
        examples: ["sort population desc", "sort name", "sort countryTitle, cityTitle", "sort region, population desc",
                   "sort average_lifespan desc"],
        discussion: """
        Numbers sort as numbers (also when written as text, as SWAPI does), text ignoring case and \
        accents, then by code point. Records without a value — missing, null, empty, n/a, unknown, \
        none, or a word in a field of numbers (indefinite) — come last either way, and keep their \
        text. Equal records keep their order. The sorted fields are shown as columns.
        """
    )

    public static func complete(_ request: CompletionRequest, in session: Session) -> [CompletionCandidate] {
        // After a field: asc or desc; after a comma (or at the start): a field.
        guard let last = request.arguments.last?.text, !last.hasSuffix(",") else { return CompletionSources.fields(request, in: session) }
        if ["asc", "desc"].contains(last.lowercased()) { return [] }
        return request.matching(["asc", "desc"])
    }

    public static func roles(of arguments: [Word], in session: Session) -> [ArgumentRole] {
        var expectsField = true
        return arguments.enumerated().map { index, word in
            let bare = word.text.hasSuffix(",") ? String(word.text.dropLast()) : word.text
            defer { expectsField = word.text.hasSuffix(",") }
            if expectsField { return ArgumentRole(word: index, role: .field) }
            return ArgumentRole(word: index, role: ["asc", "desc"].contains(bare.lowercased()) ? .keyword : .plain)
        }
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        return try session.apply(.sort(try keys(arguments)))
    }

    /// `population desc, name` → two keys.
    static func keys(_ arguments: Arguments) throws -> [SortKey] {
        guard !arguments.isEmpty else { throw arguments.usageError("missing FIELD") }
        var keys: [SortKey] = []
        for part in arguments.text.split(separator: ",", omittingEmptySubsequences: false) {
            let words = part.split(separator: " ").map(String.init)
            guard let field = words.first else { throw arguments.usageError("a FIELD is missing between commas") }
            guard words.count <= 2 else { throw arguments.usageError("unexpected '\(SafeText.escape(words[2]))' — separate keys with commas") }
            var key = SortKey(field)
            if words.count == 2 {
                switch words[1].lowercased() {
                case "asc": key.descending = false
                case "desc": key.descending = true
                default: throw arguments.usageError("the order is asc or desc, not '\(SafeText.escape(words[1]))'")
                }
            }
            keys.append(key)
        }
        return keys
    }
}
