/// Conventions shared by the SWAPI resources (species, planets, people).
public enum SWAPI {
    /// The number at the end of a resource URL: `https://swapi.dev/api/species/3/` → 3.
    public static func id(fromURL url: String) -> Int? {
        let parts = url.split(separator: "/")
        guard let last = parts.last else { return nil }
        return Int(last)
    }

    /// The identities `show` accepts for a SWAPI record: its number, and its URL.
    static func identities(of record: JSONValue) -> [String] {
        guard let url = record["url"]?.string else { return [] }
        return [id(fromURL: url).map(String.init), url.uppercased()].compactMap { $0 }
    }

    /// A SWAPI list field: `"blue, green, yellow"` → three colours; `"none"` and `"n/a"` → none.
    public static func list(_ text: String) -> [String] {
        let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
        if lowered == "none" || lowered == "n/a" || lowered.isEmpty { return [] }
        return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
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

    static func numericField(_ key: String) -> DerivedField {
        DerivedField(name: key) { dataset, row in numericOrText(dataset, row, key: key) }
    }
}

import Foundation
