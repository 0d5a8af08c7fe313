import AlmanacCore

/// `sort FIELD [asc|desc][, FIELD [asc|desc]…]` orders the current result set, key after key.
public enum SortCommand: Command {
    static let keys = Parameter.field(.list(suffixes: ["asc", "desc"]))

    public static let spec = CommandSpec(
        name: "sort",
        summary: "Order the results by one or more fields",
        parameters: [keys],
        examples: ["sort population desc", "sort name", "sort countryTitle, cityTitle", "sort region, population desc",
                   "sort average_lifespan desc", "sort population / area desc", "sort length(name) desc"],
        discussion: """
        Numbers sort as numbers (also when written as text, as SWAPI does, and SWAPI's galactic \
        years as signed years: 896BBY before 19BBY before 4ABY), ISO dates by their instant \
        (2023-12-31T23:59:59-02:00 after 2024-01-01), text ignoring case and accents, then by code point. In a field \
        of numbers and words the numbers come first either way (sort score desc: 12, 10, 7.5, abc). Records without a value — missing, null, empty, n/a, unknown, \
        none, or a word in a field of four fifths numbers or dates (indefinite) — come last either way, and keep their \
        text. Equal records keep their order. The sorted fields are shown as columns. FIELD may be an \
        expression, or the name a computed column was given: help expressions.
        """
    ).role(.shapes())

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        return try session.apply(.sort(try sortKeys(arguments, in: session)))
    }

    /// `population / area desc, name` → two keys, the expression's as its canonical text;
    /// a computed column's name (`sort density desc`) is that column.
    static func sortKeys(_ arguments: Arguments, in session: Session? = nil) throws -> [SortKey] {
        let names = session.map(ExpressionWords.names) ?? [:]
        if ExpressionWords.areComputed(arguments.words) {
            let items = try ExpressionWords.items(arguments, suffixes: ["asc", "desc"], names: false)
            if let session { try ExpressionWords.check(items.map(\.expression), names: names, in: session, words: arguments.words) }
            return items.map { item in
                SortKey(ExpressionWords.resolving(item, names: names), descending: item.suffix == "desc")
            }
        }
        return try arguments.parse()[keys].map { value in
            SortKey(names[value.text].map(\.spec) ?? value.text, descending: value.suffix == "desc")
        }
    }
}
