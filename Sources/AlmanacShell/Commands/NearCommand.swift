import AlmanacCore

/// `near REF within N km`: the records within N km of a record or a place, nearest first,
/// with their distance.
public enum NearCommand: Command {
    static let reference = Parameter("REF", .text(.recordName), .words)
    static let radius = Parameter("N km", .text(.unit("km")), .words, after: "within")

    public static let spec = CommandSpec(
        name: "near",
        summary: "The records within N km of a record or of LAT, LON, nearest first",
        parameters: [reference, radius],
        examples: ["near 9362 within 50 km", "near #3 within 10 km", "near \"55.75, 37.62\" within 20 km", "near Norway within 1000 km"],
        discussion: """
        REF is what show accepts — a row of the listing (#3), an id, a name — or a place as \
        latitude and longitude (55.75, 37.62); a country's name measures from its latlng when the \
        datasets in use have no record by that name (stations near Austria). Every record of the datasets in use with coordinates \
        is measured (as search, near starts afresh; filter and sort narrow its results after), \
        stations by their point and countries by their latlng, along the great circle (haversine, \
        mean Earth radius 6,371.0088 km); near 9362 50 km is near 9362 within 50 km. The record REF names is left out. An empty answer names \
        the nearest record and its distance, on standard error. The results carry a \
        distance column (km, one decimal) that columns, sort, filter (distance < 10), group, describe, histogram, \
        expressions (distance * 1000 as meters) and export read; under --format json \
        they are a GeoJSON FeatureCollection with the distance among each Feature's properties. \
        back undoes it. On an attached PostgreSQL table the database answers it: the haversine \
        formula in SQL with the point and N as parameters (WHERE distance <= N ORDER BY distance), \
        the distance written into each row.

          countries> near Austria within 400 km
          #  name            alpha3Code  capital    region  population  distance
          ─  ──────────────  ──────────  ─────────  ──────  ──────────  ────────
          1  Slovenia        SVN         Ljubljana  Europe   2,100,126     176.3
          2  Liechtenstein   LIE         Vaduz      Europe      38,137     286.6
          3  Croatia         HRV         Zagreb     Europe   4,047,200     292.9
          4  Czech Republic  CZE         Prague     Europe  10,698,896     312.5
        """
    ).role(.shapes())

    /// `near Москва 5 km` as `near Москва within 5 km`: without a `within`, a closing number
    /// and `km` are the radius (they said "missing within N km").
    static func withWithin(_ words: [Word]) -> [Word] {
        guard words.count >= 3, !words.contains(where: { !$0.isQuoted && $0.text.lowercased() == "within" }),
              let last = words.last, !last.isQuoted, last.text.lowercased() == "km" else { return words }
        let number = words[words.count - 2]
        guard !number.isQuoted, Double(number.text) != nil else { return words }
        var given = words
        given.insert(Word("within", column: number.column), at: words.count - 2)
        return given
    }

    public static func run(_ arguments: Arguments, in session: Session) throws -> CommandResult? {
        let parsed = try Arguments(withWithin(arguments.words), spec: arguments.spec).parse()
        let refWords = parsed[Self.reference].map(\.word)
        let kilometres = try GeoAnswer.kilometres(parsed[Self.radius].map(\.word))
        // An attached table answers in SQL; datasets in memory must have coordinates.
        let inMemory = try session.results().inMemory != nil
        let datasets = inMemory ? try GeoAnswer.datasetsWithCoordinates(for: "near", in: session) : []
        let text = parsed.text(Self.reference)
        if let point = try MapCommand.pointed(at: refWords, { try GeoAnswer.point(text) }) {
            let spec = NearSpec(centre: point, kilometres: kilometres)
            return GeoExplanation.near(try GeoAnswer.apply(.near(spec), in: session), spec, from: text, in: session)
        }
        let target = try MapCommand.pointed(at: refWords) { try record(text, among: datasets, in: session) }
        guard case let .point(point) = GeoLocator(dataset: target.dataset).locate(row: target.row) else {
            throw ShellError.invalid("\(SafeText.escape(target.dataset.name(of: target.row))) has no coordinates to measure from")
                .pointing(at: refWords)
        }
        let excluded = datasets.firstIndex { $0 === target.dataset }.map { ResultSet.Item(dataset: $0, row: target.row) }
        let spec = NearSpec(centre: point, kilometres: kilometres, excluding: excluded, excludedRecord: inMemory ? nil : target)
        return GeoExplanation.near(try GeoAnswer.apply(.near(spec), in: session), spec, from: target.dataset.name(of: target.row), in: session)
    }

    /// The record REF names in the datasets in use; else a country by that name (stations near
    /// Austria are measured from its latlng).
    static func record(_ text: String, among datasets: [Dataset], in session: Session) throws -> RecordTarget {
        do {
            return try RecordTarget.resolve(text, in: session)
        } catch let error as ShellError {
            guard !text.trimmingCharacters(in: .whitespaces).hasPrefix("#"), !datasets.isEmpty,
                  !datasets.contains(where: { $0.name == "countries" }),
                  session.catalog.contains("countries"), let countries = try? session.dataset("countries"),
                  let country = try? RecordTarget.resolve(text, in: session, datasets: [countries]) else { throw error }
            return country
        }
    }
}
