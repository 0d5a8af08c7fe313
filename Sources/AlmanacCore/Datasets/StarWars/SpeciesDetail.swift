import Foundation

extension SpeciesModel {
    /// A readable description, then looks, kind, homeworld and people by name, films, dates.
    public static func detail(of dataset: Dataset, row: Int, links: Links) -> RecordDetail {
        let species = Species(dataset.record(row))
        typealias Row = RecordDetail.Row
        typealias Section = RecordDetail.Section
        // A planet named "unknown" (Yoda's) is no homeworld to speak of.
        let homeworldName = species.homeworld.flatMap { links.name(ofURL: $0, in: "planets") }
        let homeworld = homeworldName.map { ValueText.isAbsent($0) ? nil : $0 } ?? species.homeworld
        let people = species.people.map { links.name(ofURL: $0, in: "people") ?? $0 }
        let films = species.films.compactMap { SWAPI.id(fromURL: $0) }.map { "Episode \(Self.episode(film: $0))" }
        return RecordDetail(title: species.name, sections: [
            Section("About", paragraph: species.description(homeworldName: homeworld == species.homeworld ? nil : homeworld)),
            Section("Looks", rows: [
                Row("Eye colours", species.eyeColors.joined(separator: ", ")),
                Row("Hair colours", species.hairColors.joined(separator: ", ")),
                Row("Skin colours", species.skinColors.joined(separator: ", ")),
            ]),
            Section("Kind", rows: [
                Row("Classification", species.classification), Row("Designation", species.designation),
                Row("Language", species.language),
                Row("Average height", species.averageHeightText.map { species.averageHeight == nil ? $0 : $0 + " cm" }),
                Row("Average lifespan", species.averageLifespan.reading),
            ]),
            Section("Homeworld", rows: [Row("Homeworld", homeworld)]),
            Section("People", rows: [Row("People", people.joined(separator: ", "))]),
            Section("Films", rows: [Row("Films", films.joined(separator: ", "))]),
            Section("Dates", rows: [
                Row("Created", species.created.map(Self.dateText)), Row("Edited", species.edited.map(Self.dateText)),
            ]),
        ])
    }

    /// SWAPI numbers films in release order; people know them by episode.
    static func episode(film: Int) -> String {
        let episodes = [1: "IV", 2: "V", 3: "VI", 4: "I", 5: "II", 6: "III", 7: "VII"]
        return episodes[film] ?? String(film)
    }

    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
