import Foundation

/// The detail of a SWAPI record, built row by row: values read by `SWAPI.reading` (absent ones
/// left out, numbers as the table shows them), links by the names of what they point at
/// (`Links.swapiName`), and every field the model did not place listed under "More" — so a
/// page from the live API (with `vehicles`, `starships`) hides nothing.
struct SWAPIDetail {
    typealias Row = RecordDetail.Row
    typealias Section = RecordDetail.Section

    let record: JSONValue
    let links: Links
    private var placed: Set<String> = ["name", "url", "created", "edited"]

    init(_ record: JSONValue, links: Links) {
        self.record = record
        self.links = links
    }

    /// The field's reading, followed by `unit` when it is a number (`172 cm`).
    mutating func text(_ key: String, unit: String? = nil) -> String? {
        placed.insert(key)
        guard let text = SWAPI.reading(record, key) else { return nil }
        guard let unit, record[key]?.number ?? (record[key]?.string).flatMap(NumericText.value) != nil else { return text }
        return unit == "%" ? text + unit : text + " " + unit
    }

    /// A link, or a list of links, as the names of what they point at.
    mutating func names(_ key: String) -> String? {
        placed.insert(key)
        return record[key].flatMap(linkNames)
    }

    private func linkNames(_ value: JSONValue) -> String? {
        let names = links.swapiNames(of: value)
        return names.isEmpty ? nil : names.joined(separator: ", ")
    }

    /// The fields not placed yet, labelled from their keys; links among them by name.
    func more() -> Section {
        let rows = record.members.filter { !placed.contains($0.key) }.map { member in
            let urls = member.value.string.map { [$0] } ?? member.value.strings ?? []
            let isLinks = !urls.isEmpty && urls.allSatisfy { SWAPI.resource(ofURL: $0) != nil }
            return Row(Self.label(member.key), isLinks ? linkNames(member.value) : ValueText.text(of: member.value, field: member.key))
        }
        return Section("More", rows: rows)
    }

    func dates() -> Section {
        Section("Dates", rows: ["created", "edited"].map { key in
            Row(Self.label(key), (record[key]?.string).flatMap(Species.date).map(SpeciesModel.dateText))
        })
    }

    /// `rotation_period` → `Rotation period`.
    static func label(_ key: String) -> String {
        let words = key.replacingOccurrences(of: "_", with: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}

extension PersonModel {
    /// Who they are, their looks, their homeworld and species by name, their films by title.
    public static func detail(of dataset: Dataset, row: Int, links: Links) -> RecordDetail {
        var detail = SWAPIDetail(dataset.record(row), links: links)
        typealias Row = RecordDetail.Row
        typealias Section = RecordDetail.Section
        return RecordDetail(title: dataset.name(of: row), sections: [
            Section("Person", rows: [
                Row("Birth year", detail.text("birth_year")), Row("Gender", detail.text("gender")),
                Row("Species", detail.names("species")),
            ]),
            Section("Looks", rows: [
                Row("Height", detail.text("height", unit: "cm")), Row("Mass", detail.text("mass", unit: "kg")),
                Row("Hair colour", detail.text("hair_color")), Row("Skin colour", detail.text("skin_color")),
                Row("Eye colour", detail.text("eye_color")),
            ]),
            Section("Homeworld", rows: [Row("Homeworld", detail.names("homeworld"))]),
            Section("Films", rows: [Row("Films", detail.names("films"))]),
            detail.more(),
            detail.dates(),
        ])
    }
}

extension PlanetModel {
    /// Climate and terrain, size and orbit, residents by name, films by title.
    public static func detail(of dataset: Dataset, row: Int, links: Links) -> RecordDetail {
        var detail = SWAPIDetail(dataset.record(row), links: links)
        typealias Row = RecordDetail.Row
        typealias Section = RecordDetail.Section
        return RecordDetail(title: dataset.name(of: row), sections: [
            Section("Planet", rows: [
                Row("Climate", detail.text("climate")), Row("Terrain", detail.text("terrain")),
                Row("Gravity", detail.text("gravity")), Row("Surface water", detail.text("surface_water", unit: "%")),
                Row("Population", detail.text("population")),
            ]),
            Section("Size and orbit", rows: [
                Row("Diameter", detail.text("diameter", unit: "km")),
                Row("Rotation period", detail.text("rotation_period", unit: "hours")),
                Row("Orbital period", detail.text("orbital_period", unit: "days")),
            ]),
            Section("Residents", rows: [Row("Residents", detail.names("residents"))]),
            Section("Films", rows: [Row("Films", detail.names("films"))]),
            detail.more(),
            detail.dates(),
        ])
    }
}
