import AlmanacCore

/// `within COUNTRY`: the records whose point lies inside a country's outline.
public enum WithinCommand: Command {
    static let country = Parameter("COUNTRY", .text(.countries), .words)

    public static let spec = CommandSpec(
        name: "within",
        summary: "The records whose coordinates lie inside a country's outline",
        parameters: [country],
        examples: ["within Austria", "within AUT", "within \"United Kingdom\"", "use stations; within Österreich; map"],
        discussion: """
        COUNTRY is a name, a code or any name search knows (Österreich, AT). Every record of the \
        datasets in use with coordinates is placed (as search, within starts afresh): stations by \
        their point, countries by their latlng; inside means inside the country's outline in \
        world.geojson (Natural Earth 1:110m: coasts and borders are simplified to about 10 km), \
        holes (Lesotho in South Africa) and islands included. A country without an outline (177 of \
        250 have one) says so. An empty answer says, on standard error, how many records had coordinates \
        and which of them lies nearest the outline, and how far. The results are in the dataset's order; under --format json a \
        GeoJSON FeatureCollection. back undoes it. On an attached PostgreSQL table the database \
        answers: the outline's box on the row's latitude and longitude, then the same even-odd ray \
        cast over the outline's edges bound as arrays — no row is fetched to decide, and the rows \
        are those memory finds.
        """
    ).role(.shapes())

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try arguments.parse()
        let words = parsed[Self.country].map(\.word)
        // An attached table answers in SQL; datasets in memory must have coordinates.
        if try session.results().inMemory != nil { _ = try GeoAnswer.datasetsWithCoordinates(for: "within", in: session) }
        let (countries, row) = try GeoAnswer.country(parsed.text(Self.country), words: words, in: session)
        let areas = try GeoAnswer.areas(in: session)
        let outline = try GeoAnswer.outline(ofCountry: row, in: countries, areas: areas, words: words)
        let spec = WithinSpec(name: countries.name(of: row), area: areas.areas[outline])
        return GeoExplanation.within(try GeoAnswer.apply(.within(spec), in: session), spec, in: session)
    }
}
