/// The species of SWAPI: an array of species objects, or API pages of them. Identified by the
/// number at the end of `url`.
public enum SpeciesModel: RecordModel {
    public static let singular = "species"
    public static let plural = "species"
    public static let nameField = "name"
    public static let listFields = ["name", "classification", "designation", "average_height", "average_lifespan", "language"]

    public static let fieldSpecs: [FieldSpec] = [
        FieldSpec("url", .string, identity: true),
        FieldSpec("name", .string),
        FieldSpec("classification", .string),
        FieldSpec("designation", .string),
        FieldSpec("average_height", .numericText),
        FieldSpec("skin_colors", .string),
        FieldSpec("hair_colors", .string),
        FieldSpec("eye_colors", .string),
        FieldSpec("average_lifespan", .string),
        FieldSpec("homeworld", .string, nullable: true),
        FieldSpec("language", .string),
        FieldSpec("people", .list(of: .string)),
        FieldSpec("films", .list(of: .string)),
        FieldSpec("created", .string),
        FieldSpec("edited", .string),
    ]

    /// Colours as lists and numbers as numbers, so `filter eye_colors = blue` and
    /// `filter average_lifespan > 100` mean what they say.
    public static let derivedFields: [DerivedField] = [
        SWAPI.listField("skin_colors"), SWAPI.listField("hair_colors"), SWAPI.listField("eye_colors"),
        SWAPI.numericField("average_height"), SWAPI.numericField("average_lifespan"),
        SWAPI.linkField("homeworld"), SWAPI.linkField("people"), SWAPI.linkField("films"),
    ]
    public static let linkedDatasets = SWAPI.resources

    public static func identities(of record: JSONValue) -> [String] { SWAPI.identities(of: record) }
}

/// SWAPI planets: the targets of a species' `homeworld`.
public enum PlanetModel: RecordModel {
    public static let singular = "planet"
    public static let plural = "planets"
    public static let nameField = "name"
    public static let listFields = ["name", "climate", "terrain", "population", "diameter"]
    public static let fieldSpecs: [FieldSpec] = [FieldSpec("url", .string, identity: true), FieldSpec("name", .string)]
    public static let derivedFields: [DerivedField] = [
        SWAPI.numericField("population"), SWAPI.numericField("diameter"),
        SWAPI.numericField("rotation_period"), SWAPI.numericField("orbital_period"),
        SWAPI.numericField("surface_water"), SWAPI.linkField("residents"), SWAPI.linkField("films"),
    ]
    public static let linkedDatasets = SWAPI.resources
    public static func identities(of record: JSONValue) -> [String] { SWAPI.identities(of: record) }
}

/// SWAPI people: the targets of a species' `people`.
public enum PersonModel: RecordModel {
    public static let singular = "person"
    public static let plural = "people"
    public static let nameField = "name"
    public static let listFields = ["name", "gender", "birth_year", "height", "mass"]
    public static let fieldSpecs: [FieldSpec] = [FieldSpec("url", .string, identity: true), FieldSpec("name", .string)]
    public static let derivedFields: [DerivedField] = [
        SWAPI.numericField("height"), SWAPI.numericField("mass"), SWAPI.linkField("homeworld"), SWAPI.linkField("species"),
        SWAPI.linkField("films"), SWAPI.linkField("vehicles"), SWAPI.linkField("starships"),
    ]
    public static let linkedDatasets = SWAPI.resources
    public static func identities(of record: JSONValue) -> [String] { SWAPI.identities(of: record) }
}
