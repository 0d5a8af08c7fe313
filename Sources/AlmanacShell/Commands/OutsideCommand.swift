import AlmanacCore

/// `outside`: the records whose point lies outside the outline of their own country — a check
/// of the data's coordinates against its country field.
public enum OutsideCommand: Command {
    public static let spec = CommandSpec(
        name: "outside",
        summary: "The records whose coordinates lie outside their own country's outline, farthest first",
        parameters: [],
        examples: ["use stations; outside", "outside; map", "outside; group countryTitle"],
        discussion: """
        Each record's country is its countryTitle (or country) field, read as show reads a \
        station's country (Россия is Russia); its point is compared with that country's outline \
        in world.geojson (Natural Earth 1:110m, so a station on the coast may lie a few km out at \
        sea). The results carry a distance column: km from the point to the outline, one decimal, \
        farthest first. Records whose country is unknown or has no outline are not judged; an empty answer says, on standard \
        error, how many were and how many were not. Under \
        --format json the results are a GeoJSON FeatureCollection; map draws them. back undoes it. \
        On an attached PostgreSQL table the database answers: the table's different country \
        names are read once (GROUP BY, at most 1,000), each resolved to its outline here, and \
        per name the outline's edges are bound as arrays — within's ray cast, negated, and the \
        distance to the nearest edge's great-circle arc in the same arithmetic — so no row is \
        fetched to decide, and the rows and distances are those memory finds.
        """
    ).role(.shapes())

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        _ = try arguments.parse()
        let source = try session.results()
        let field: String
        if source.inMemory == nil {
            // An attached table answers in SQL (its coordinates are found when the step applies).
            let names = ["countryTitle", "country"]
            guard let found = names.first(where: { (try? source.checkField($0, cancellation: session.cancellation)) != nil }) else {
                throw noCountryField(source.datasetNames)
            }
            field = found
        } else {
            field = try countryField(try GeoAnswer.datasetsWithCoordinates(for: "outside", in: session), in: session)
        }
        let countries = try session.dataset("countries")
        let areas = try GeoAnswer.areas(in: session)
        let spec = OutsideSpec(field: field, countries: countries, areas: areas)
        return GeoExplanation.outside(try GeoAnswer.apply(.outside(spec), in: session), spec, in: session)
    }

    /// The field naming each record's country: countryTitle, else country.
    static func countryField(_ datasets: [Dataset], in session: Session) throws -> String {
        for field in ["countryTitle", "country"] {
            for dataset in datasets where FieldLookup.field(field, in: try dataset.fields(cancellation: session.cancellation)) != nil {
                return field
            }
        }
        throw noCountryField(datasets.map(\.name))
    }

    static func noCountryField(_ names: [String]) -> ShellError {
        .invalid("outside compares each record's coordinates with the outline of its own country, named by a "
            + "countryTitle or country field, and \(names.joined(separator: ", ")) has neither")
    }
}
