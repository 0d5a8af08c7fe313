import AlmanacCore

/// `sort FIELD [asc|desc][, FIELD [asc|desc]…]` orders the current result set, key after key.
public enum SortCommand: Command {
    static let keys = Parameter.field(.list(suffixes: ["asc", "desc"]))

    public static let spec = CommandSpec(
        name: "sort",
        summary: "Order the results by one or more fields",
        parameters: [keys],
        examples: ["sort population desc", "sort name", "sort countryTitle, cityTitle", "sort region, population desc",
                   "sort average_lifespan desc"],
        discussion: """
        Numbers sort as numbers (also when written as text, as SWAPI does), text ignoring case and \
        accents, then by code point. Records without a value — missing, null, empty, n/a, unknown, \
        none, or a word in a field of numbers (indefinite) — come last either way, and keep their \
        text. Equal records keep their order. The sorted fields are shown as columns.
        """
    ).role(.shapes())

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        return try session.apply(.sort(try keys(arguments)))
    }

    /// `population desc, name` → two keys, as declared.
    static func keys(_ arguments: Arguments) throws -> [SortKey] {
        try arguments.parse()[keys].map { SortKey($0.text, descending: $0.suffix == "desc") }
    }
}
