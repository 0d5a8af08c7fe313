import Foundation

extension SpeciesModel {
    /// A readable description, then looks, kind, homeworld and people by name, films by title, dates.
    public static func detail(of dataset: Dataset, row: Int, links: Links) -> RecordDetail {
        let species = Species(dataset.record(row))
        typealias Row = RecordDetail.Row
        typealias Section = RecordDetail.Section
        let homeworld = species.homeworld.flatMap { links.swapiName(ofURL: $0) }
        let people = species.people.compactMap { links.swapiName(ofURL: $0) }
        let films = species.films.compactMap { links.swapiName(ofURL: $0) }
        return RecordDetail(title: species.name, sections: [
            Section("About", paragraph: species.description(homeworldName: homeworld)),
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

    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
