/// `help links`, and the manual's Links section: paths that cross links between datasets.
enum LinkHelp {
    static let introduction = """
    A field path may cross a link between datasets, any number of times, wherever a field may \
    stand: filter, sort, columns, group, describe, histogram, expressions. From people, \
    homeworld.climate is the climate of each person's planet; species.homeworld.climate crosses \
    two links. A link that leads to several records (a country's borders, a planet's residents) \
    is a list: a comparison matches when any of them does (!= and !~: when none does), count() \
    counts them, group counts each.
    """

    static let rules: [(topic: String, text: String)] = [
        ("Bundled links", "people: homeworld (planets), species; species: homeworld, people; planets: residents "
            + "(people); countries: borders (countries, by alpha-3 code); stations: country (the country whose "
            + "Russian name the station's countryTitle is; Молдова is Молдавия, so every station finds its country)."),
        ("Backwards", "every link is also followed backwards, named after the dataset that links: "
            + "countries.stations, planets.people, owners.pets."),
        ("Declared", "link pets.owner_id to owners.id declares one between any two datasets (files, bundled, "
            + "attached tables): the field's values equal the key's, numbers by their digits. link lists every "
            + "link; link drop pets.owner_id forgets it; save keeps declared links; show lists the records a "
            + "declared link leads to."),
        ("Errors", "a path through a field that is no link names the field and the dataset's links, with a "
            + "did-you-mean; a cycle is fine (paths are finite)."),
        ("Tables", "between attached PostgreSQL tables of one database a path is a join the database runs (keys "
            + "compared in SQL, every value a bound parameter); a path from a table into a dataset in memory of at "
            + "most 10,000 keys joins it sent as a VALUES list (its keys and the values the path reads, each a "
            + "parameter), so filter, sort, columns and group still run in the database; a bigger one is refused "
            + "with the limit and its count, and a table of another database is refused; neither is fetched row by row."),
    ]

    static let examples = [
        "use people; filter homeworld.climate ~ arid", "use species; columns name, homeworld.climate",
        "use people; filter species.homeworld.climate ~ temperate", "use countries; filter borders.name = Norway",
        "use stations; group country.region", "use countries; columns name, count(stations) as n; sort n desc",
        "use planets; sort count(residents) desc", "link pets.owner_id to owners.id; use pets; filter owner_id.name = Ann",
    ]

    /// The help text, line by line.
    static var lines: [String] {
        var lines = ["Links", "", introduction, ""]
        for rule in rules { lines += ["\(rule.topic): \(rule.text)", ""] }
        return lines + ["Examples:"] + examples.map { "  " + $0 }
    }

    /// The manual's section.
    static var manual: String {
        (MDoc.topics(introduction, rules) + [MDoc.literal(examples)]).joined(separator: "\n")
    }
}
