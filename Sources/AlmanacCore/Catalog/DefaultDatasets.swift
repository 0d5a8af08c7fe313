/// The datasets almanac knows by name: the bundled files and the model that reads each.
public enum DefaultDatasets {
    public struct Entry: Sendable {
        public var name: String
        public var file: String
        public var model: any RecordModel.Type
    }

    public static let all: [Entry] = [
        Entry(name: "countries", file: "countries.json", model: CountryModel.self),
        Entry(name: "species", file: "species.json", model: SpeciesModel.self),
        Entry(name: "planets", file: "planets.json", model: PlanetModel.self),
        Entry(name: "people", file: "people.json", model: PersonModel.self),
        Entry(name: "stations", file: "stations.json", model: StationModel.self),
    ]

    /// The model a dataset name implies: a known name's, else the generic one.
    public static func model(for name: String) -> any RecordModel.Type {
        all.first { $0.name == name.lowercased() }?.model ?? GenericModel.self
    }

    /// Load requests for every bundled dataset in `directory`.
    public static func requests(in directory: String) -> [LoadRequest] {
        all.map { LoadRequest(name: $0.name, source: .file(path: directory + "/" + $0.file), model: $0.model) }
    }
}
