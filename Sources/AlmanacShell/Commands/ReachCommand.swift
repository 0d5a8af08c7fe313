import AlmanacCore

/// `reach COUNTRY N`: the countries within N land borders of one, with how many borders away.
public enum ReachCommand: Command {
    static let country = Parameter("COUNTRY", .text(.countries))
    static let borders = Parameter("N", .number(1...250, or: []))

    public static let spec = CommandSpec(
        name: "reach",
        summary: "The countries within N land borders of a country",
        parameters: [country, borders],
        examples: ["reach Germany 1", "reach Spain 2", "reach \"United Kingdom\" 3", "reach CHN 2; group region"],
        discussion: """
        COUNTRY is a name (quoted when it has spaces), a code or any name search knows. The results \
        are countries (not COUNTRY itself), nearest first, then by name, with a distance column: how \
        many borders away each is (1 for a neighbour). A border counts when either country names \
        it (the data lists a few on one side only). A dataset in use with the countries' shape \
        (alpha3Code and a borders list), whatever its name, is followed as countries are. They are results like any other: columns, \
        sort, group, map and export work on them; back undoes it. On an attached PostgreSQL table \
        of countries (alpha3Code and a borders list) the table's own borders are read — a table \
        of over 100,000 rows is refused with its size — the graph is searched as in memory, and \
        the database answers with the rows whose code was reached (bound as an array) and their \
        distance.

          countries> reach Austria 1
          #  name            alpha3Code  capital     region  population  distance
          ─  ──────────────  ──────────  ──────────  ──────  ──────────  ────────
          1  Czech Republic  CZE         Prague      Europe  10,698,896         1
          2  Germany         DEU         Berlin      Europe  83,240,525         1
          3  Hungary         HUN         Budapest    Europe   9,749,763         1
          4  Italy           ITA         Rome        Europe  59,554,023         1
          5  Liechtenstein   LIE         Vaduz       Europe      38,137         1
          6  Slovakia        SVK         Bratislava  Europe   5,458,827         1
          7  Slovenia        SVN         Ljubljana   Europe   2,100,126         1
          8  Switzerland     CHE         Bern        Europe   8,636,896         1
        """
    ).role(.shapes())

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        guard let borders = parsed[Self.borders].first?.number else { throw arguments.usageError("missing N") }
        let (countries, row) = try GeoAnswer.country(parsed.text(Self.country), words: parsed[Self.country].map(\.word), in: session)
        // An attached table of countries follows its own borders (in the database's engine).
        if try session.results().inMemory != nil {
            guard try session.datasetsInScope().contains(where: { $0 === countries }) else {
                throw ShellError.invalid("reach answers with countries, and the dataset in use is \(session.scopeNames.joined(separator: ", ")) — "
                    + "'use countries' first")
            }
        }
        let code = countries.values(of: countries.compile(FieldPath("alpha3Code")), row: row).first.map { countries.text(of: $0) } ?? ""
        var spec = ReachSpec(dataset: countries.name, row: row, borders: borders, code: code)
        // The table's rows kept by GeoAnswer: followed here, not read again by the table.
        if let kept = session.countryRows, kept.rows === countries, kept.table != nil { spec.reached = ReachedCountries(from: row, within: borders, in: countries) }
        let applied = try session.apply(.reach(spec))
        guard var results = try? session.results(), (try? results.count(fresh: false, cancellation: session.cancellation)) == 0 else {
            return applied
        }
        var answer = applied
        // Within one border or more, none: the country has no land neighbour (an island).
        session.explainEmpty(["no records — \(SafeText.escape(countries.name(of: row))) borders no country over land"], in: &answer)
        return answer
    }
}
