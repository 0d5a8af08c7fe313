import Foundation

/// A Star Wars species as SWAPI serves it, with its lists split and its numbers read.
public struct Species: Sendable, Equatable {
    public var name: String
    /// Text fields are nil when the source says nothing (`n/a`, `unknown`: see `ValueText`).
    public var classification: String?
    public var designation: String?
    /// Centimetres, when the source gives a number.
    public var averageHeight: Double?
    /// How the height reads (`"210"` as written, or a word that is not a number); nil when absent.
    public var averageHeightText: String?
    public var skinColors: [String]
    public var hairColors: [String]
    public var eyeColors: [String]
    public var averageLifespan: Lifespan
    /// URL of the home planet, or nil (droids have none).
    public var homeworld: String?
    public var language: String?
    public var people: [String]
    public var films: [String]
    public var created: Date?
    public var edited: Date?
    public var url: String
    /// The number at the end of `url`.
    public var id: Int?

    /// A lifespan in years when the source gives one, else its word ("indefinite"; "unknown"
    /// is absent).
    public struct Lifespan: Sendable, Equatable {
        public var text: String
        public var years: Double? { NumericText.value(of: text) }
        /// `1,000 years`, `indefinite`; nil when the source does not say.
        public var reading: String? {
            if years != nil { return SWAPI.reading(text, field: "average_lifespan").map { $0 + " years" } }
            return SWAPI.reading(text, field: "average_lifespan")
        }
    }

    public init(_ record: JSONValue) {
        name = record["name"]?.string ?? ""
        classification = SWAPI.reading(record, "classification")
        designation = SWAPI.reading(record, "designation")
        averageHeightText = SWAPI.reading(record, "average_height")
        averageHeight = record["average_height"]?.number ?? (record["average_height"]?.string).flatMap(NumericText.value)
        skinColors = SWAPI.list(record["skin_colors"]?.string ?? "")
        hairColors = SWAPI.list(record["hair_colors"]?.string ?? "")
        eyeColors = SWAPI.list(record["eye_colors"]?.string ?? "")
        averageLifespan = Lifespan(text: record["average_lifespan"]?.string ?? record["average_lifespan"]?.literal ?? "unknown")
        homeworld = record["homeworld"]?.string
        language = SWAPI.reading(record, "language")
        people = record["people"]?.strings ?? []
        films = record["films"]?.strings ?? []
        created = record["created"]?.string.flatMap(Self.date)
        edited = record["edited"]?.string.flatMap(Self.date)
        url = record["url"]?.string ?? ""
        id = SWAPI.id(fromURL: url)
    }

    /// ISO 8601 with fractional seconds, as SWAPI writes them (`2014-12-10T13:52:11.567Z`).
    public static func date(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// A readable paragraph, like the species browser's: "Members of the Wookie species speak
    /// Shyriiwook. They are typically 210 cm tall… Their average lifespan is 400 years."
    public func description(homeworldName: String?) -> String {
        var sentences: [String] = []
        let kind = [designation, classification].compactMap { $0 }.joined(separator: " ")
        var opening = "The \(name) are " + (kind.isEmpty ? "a species" : "a \(kind) species")
        if let homeworldName { opening += " from \(homeworldName)" }
        sentences.append(opening + ".")
        if let language {
            // "Yoda's species" is already a species.
            let members = name.lowercased().hasSuffix("species") ? name : "\(name) species"
            sentences.append("Members of the \(members) speak \(language).")
        }
        var looks: [String] = []
        if !skinColors.isEmpty { looks.append("\(Self.list(skinColors)) skin") }
        if !hairColors.isEmpty { looks.append("\(Self.list(hairColors)) hair") }
        if !eyeColors.isEmpty { looks.append("\(Self.list(eyeColors)) eyes") }
        if averageHeight != nil, let averageHeightText {
            var sentence = "They are typically \(averageHeightText) cm tall"
            if !looks.isEmpty { sentence += ", with " + Self.list(looks, conjunction: "and") }
            sentences.append(sentence + ".")
        } else if !looks.isEmpty {
            sentences.append("They have " + Self.list(looks, conjunction: "and") + ".")
        }
        if averageLifespan.years != nil, let reading = averageLifespan.reading {
            sentences.append("Their average lifespan is \(reading).")
        } else if averageLifespan.text.lowercased() == "indefinite" {
            sentences.append("Their lifespan is indefinite.")
        } else if let reading = averageLifespan.reading {
            sentences.append("Their average lifespan is \(reading).")
        }
        return sentences.joined(separator: " ")
    }

    /// "a, b or c".
    static func list(_ items: [String], conjunction: String = "or") -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
    }
}
