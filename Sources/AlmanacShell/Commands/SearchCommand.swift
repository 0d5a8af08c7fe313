import AlmanacCore

/// `search TEXT`: records whose names contain every word, ignoring case and diacritics.
public enum SearchCommand: Command {
    static let text = Parameter("TEXT", .text(.recordNames), .words)

    public static let spec = CommandSpec(
        name: "search",
        summary: "Find records by name, ignoring case and accents",
        parameters: [text],
        examples: ["search united", "search norge", "search моск", "search aland"],
        discussion: """
        Looks in names first (countries: name; species: name; stations: stationTitle), then in \
        other names (countries: alternative spellings, native name, translations; stations: \
        cityTitle). Several words must all match. Exact names come first, then names starting \
        with the text, then names containing it, then matches in other names only.
        """
    ).role(.shapes())

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        let text = parsed.text(Self.text)
        guard text.contains(where: { !$0.isWhitespace }) else { throw arguments.usageError("missing TEXT").pointing(at: parsed[Self.text].map(\.word)) }
        return try session.apply(.search(text))
    }
}
