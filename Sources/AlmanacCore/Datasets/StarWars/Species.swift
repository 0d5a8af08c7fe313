import Foundation

/// A Star Wars species as SWAPI serves it, with its lists split and its numbers read.
public struct Species: Sendable, Equatable {
    public var name: String
    public var classification: String
    public var designation: String
    /// Centimetres, when the source gives a number.
    public var averageHeight: Double?
    /// The source's text (`"210"`, `"n/a"`), kept for what is not a number.
    public var averageHeightText: String
    public var skinColors: [String]
    public var hairColors: [String]
    public var eyeColors: [String]
    public var averageLifespan: Lifespan
    /// URL of the home planet, or nil (droids have none).
    public var homeworld: String?
    public var language: String
    public var people: [String]
    public var films: [String]
    public var created: Date?
    public var edited: Date?
    public var url: String
    /// The number at the end of `url`.
    public var id: Int?

    /// A lifespan in years when the source gives one, else its word ("indefinite", "unknown").
    public struct Lifespan: Sendable, Equatable, CustomStringConvertible {
        public var text: String
        public var years: Double? { NumericText.value(of: text) }
        public var description: String { years.map { "\(NumberFormat.plain($0)) years" } ?? text }
    }

    public init(_ record: JSONValue) {
        name = record["name"]?.string ?? ""
        classification = record["classification"]?.string ?? ""
        designation = record["designation"]?.string ?? ""
        averageHeightText = record["average_height"]?.string ?? record["average_height"]?.literal ?? ""
        averageHeight = record["average_height"]?.number ?? NumericText.value(of: averageHeightText)
        skinColors = SWAPI.list(record["skin_colors"]?.string ?? "")
        hairColors = SWAPI.list(record["hair_colors"]?.string ?? "")
        eyeColors = SWAPI.list(record["eye_colors"]?.string ?? "")
        averageLifespan = Lifespan(text: record["average_lifespan"]?.string ?? record["average_lifespan"]?.literal ?? "unknown")
        homeworld = record["homeworld"]?.string
        language = record["language"]?.string ?? ""
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
        let kind = [designation, classification].filter { !$0.isEmpty && $0 != "unknown" && $0 != "n/a" }.joined(separator: " ")
        var opening = "The \(name) are " + (kind.isEmpty ? "a species" : "a \(kind) species")
        if let homeworldName { opening += " from \(homeworldName)" }
        sentences.append(opening + ".")
        if !language.isEmpty, language != "n/a", language != "unknown" {
            sentences.append("Members of the \(name) species speak \(language).")
        }
        var looks: [String] = []
        if !skinColors.isEmpty { looks.append("\(Self.list(skinColors)) skin") }
        if !hairColors.isEmpty { looks.append("\(Self.list(hairColors)) hair") }
        if !eyeColors.isEmpty { looks.append("\(Self.list(eyeColors)) eyes") }
        if let averageHeight {
            var sentence = "They are typically \(NumberFormat.plain(averageHeight)) cm tall"
            if !looks.isEmpty { sentence += ", with " + Self.list(looks, conjunction: "and") }
            sentences.append(sentence + ".")
        } else if !looks.isEmpty {
            sentences.append("They have " + Self.list(looks, conjunction: "and") + ".")
        }
        if let years = averageLifespan.years {
            sentences.append("Their average lifespan is \(NumberFormat.plain(years)) years.")
        } else if averageLifespan.text == "indefinite" {
            sentences.append("Their lifespan is indefinite.")
        } else {
            sentences.append("Their average lifespan is \(averageLifespan.text).")
        }
        return sentences.joined(separator: " ")
    }

    /// "a, b or c".
    static func list(_ items: [String], conjunction: String = "or") -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + items.last!
    }
}
