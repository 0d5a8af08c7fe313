/// Conventions shared by the SWAPI resources (species, planets, people).
public enum SWAPI {
    /// The number at the end of a resource URL: `https://swapi.dev/api/species/3/` → 3.
    public static func id(fromURL url: String) -> Int? {
        let parts = url.split(separator: "/")
        guard let last = parts.last else { return nil }
        return Int(last)
    }

    /// The resource a SWAPI URL names: `…/api/planets/1/` → ("planets", 1).
    public static func resource(ofURL url: String) -> (kind: String, id: Int)? {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { return nil }
        let parts = url.split(separator: "/")
        guard parts.count >= 3, let id = Int(parts[parts.count - 1]) else { return nil }
        return (String(parts[parts.count - 2]).lowercased(), id)
    }

    /// `planets` → `planet`, for links to records that are not loaded.
    static func singular(of kind: String) -> String {
        switch kind {
        case "people": "person"
        case "species": "species"
        default: kind.hasSuffix("s") ? String(kind.dropLast()) : kind
        }
    }

    /// SWAPI's films by number (release order), for when no `films` dataset is loaded: the
    /// bundled data has none, and these seven never change.
    static let filmTitles = [
        1: "A New Hope", 2: "The Empire Strikes Back", 3: "Return of the Jedi", 4: "The Phantom Menace",
        5: "Attack of the Clones", 6: "Revenge of the Sith", 7: "The Force Awakens",
    ]

    /// The identities `show` accepts for a SWAPI record: its number, and its URL.
    static func identities(of record: JSONValue) -> [String] {
        guard let url = record["url"]?.string else { return [] }
        return [id(fromURL: url).map(String.init), url.uppercased()].compactMap { $0 }
    }

    /// A SWAPI list field: `"blue, green, yellow"` → three colours; `"none"`, `"n/a"` and
    /// `"unknown"` → none (absent, see `ValueText`).
    public static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !ValueText.isAbsent($0) }
    }

    /// How a SWAPI text field reads: numbers as `ValueText` reads them (SWAPI writes them as
    /// strings: `"1000"` → `1,000`), other text as is; nil when absent.
    public static func reading(_ text: String, field: String) -> String? {
        if ValueText.isAbsent(text) { return nil }
        return NumericText.value(of: text) != nil ? ValueText.number(text, field: field) : text
    }

    /// The field `key` of `record`, read like `reading(_:field:)`.
    public static func reading(_ record: JSONValue, _ key: String) -> String? {
        guard let value = record[key] else { return nil }
        if let text = value.string { return reading(text, field: key) }
        return ValueText.text(of: value, field: key)
    }

    /// Text that may hold a number ("400") or a word ("indefinite", "unknown"): the number
    /// when it is one, else the text itself, for queries.
    static func numericOrText(_ dataset: Dataset, _ row: Int, key: String) -> [FieldValue] {
        guard let text = dataset.record(row)[key]?.string else { return [] }
        if let number = NumericText.value(of: text) { return [.number(number)] }
        return [.text(text)]
    }

    static func listField(_ key: String) -> DerivedField {
        DerivedField(name: key) { dataset, row in
            (dataset.record(row)[key]?.string).map { list($0).map(FieldValue.text) } ?? []
        }
    }

    /// A field of links (`homeworld`, `residents`, `films`) read as the names of what they
    /// point at, as details read them: `filter homeworld = Tatooine`, `group homeworld` by name.
    static func linkField(_ key: String) -> DerivedField {
        DerivedField(name: key) { dataset, row in
            guard let value = dataset.record(row)[key] else { return [] }
            return dataset.links.swapiNames(of: value).map(FieldValue.text)
        }
    }

    /// The datasets SWAPI links point into, by the names of their resources.
    static let resources = ["planets", "people", "species", "films", "vehicles", "starships"]

    static func numericField(_ key: String) -> DerivedField {
        DerivedField(name: key) { dataset, row in numericOrText(dataset, row, key: key) }
    }
}

import Foundation
