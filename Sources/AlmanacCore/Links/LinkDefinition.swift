/// A link from the records of one dataset to those of another, as a path crosses it: people's
/// `homeworld` to planets (by url), a country's `borders` to countries (by alpha-3 code), a
/// station's `country` (by the name its `countryTitle` gives), or one the user declared with
/// `link pets.owner_id to owners.id`. Every link is also followed backwards, named after the
/// dataset that links (`countries.stations`, `owners.pets`).
public struct LinkDefinition: Sendable, Hashable, CustomStringConvertible {
    /// How a value of the linking field finds its records.
    public enum Match: Sendable, Hashable {
        /// The value equals the target's `field` (numbers by their digits, text exactly).
        case key(String)
        /// The text names a country: any of its names, spellings and translations, ignoring
        /// case and accents (a station's `countryTitle`).
        case countryName
    }

    /// The dataset the path starts in, and the name the path uses.
    public let from: String
    public let name: String
    /// The field holding the keys, in `from` — or, followed backwards, in `to`.
    public let field: String
    public let to: String
    public let match: Match
    /// Followed backwards: the records of `to` whose link points at the record.
    public let isReverse: Bool
    /// Declared with `link` (kept by `save`), not bundled.
    public let isDeclared: Bool

    public init(from: String, name: String, field: String, to: String, match: Match, isReverse: Bool = false, isDeclared: Bool = false) {
        self.from = from.lowercased()
        self.name = name
        self.field = field
        self.to = to.lowercased()
        self.match = match
        self.isReverse = isReverse
        self.isDeclared = isDeclared
    }

    /// The same link followed backwards, from `to`, named after `from`.
    public var reversed: LinkDefinition {
        LinkDefinition(from: to, name: from, field: field, to: from, match: match, isReverse: true, isDeclared: isDeclared)
    }

    /// `people.homeworld → planets.url`, `countries.stations ← stations.country`.
    public var description: String {
        let target: String
        switch match {
        case let .key(key): target = "\(to).\(key)"
        case .countryName: target = "\(to) (by name)"
        }
        if isReverse { return "\(from).\(name) ← \(to).\(field)" }
        return "\(from).\(name) → \(target)"
    }

    /// The line `link` shows, and `save` writes for a declared link: `link pets.owner_id to owners.id`.
    public var command: String? {
        guard isDeclared, !isReverse, case let .key(key) = match else { return nil }
        return "link \(from).\(field) to \(to).\(key)"
    }

    /// The links of the bundled datasets: SWAPI's urls, the countries' borders, a station's country.
    public static let bundled: [LinkDefinition] = {
        let forward = [
            LinkDefinition(from: "people", name: "homeworld", field: "homeworld", to: "planets", match: .key("url")),
            LinkDefinition(from: "people", name: "species", field: "species", to: "species", match: .key("url")),
            LinkDefinition(from: "species", name: "homeworld", field: "homeworld", to: "planets", match: .key("url")),
            LinkDefinition(from: "species", name: "people", field: "people", to: "people", match: .key("url")),
            LinkDefinition(from: "planets", name: "residents", field: "residents", to: "people", match: .key("url")),
            LinkDefinition(from: "countries", name: "borders", field: "borders", to: "countries", match: .key("alpha3Code")),
            LinkDefinition(from: "stations", name: "country", field: "countryTitle", to: "countries", match: .countryName),
        ]
        // Only the backwards links the data does not already have as a field of its own.
        return forward + [LinkDefinition(from: "stations", name: "country", field: "countryTitle", to: "countries",
                                         match: .countryName).reversed]
    }()
}
