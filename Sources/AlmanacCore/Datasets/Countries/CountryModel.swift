/// The countries of REST Countries v2: an array of country objects, identified by `alpha3Code`
/// (and reachable by `alpha2Code`).
public enum CountryModel: RecordModel {
    public static let singular = "country"
    public static let plural = "countries"
    public static let nameField = "name"
    public static let otherNameFields = ["altSpellings", "nativeName", "translations"]
    public static let listFields = ["name", "alpha3Code", "capital", "region", "population"]

    public static let fieldSpecs: [FieldSpec] = [
        FieldSpec("alpha3Code", .string, identity: true),
        FieldSpec("name", .string),
        FieldSpec("alpha2Code", .string),
        FieldSpec("topLevelDomain", .list(of: .string)),
        FieldSpec("callingCodes", .list(of: .string)),
        FieldSpec("capital", .string),
        FieldSpec("altSpellings", .list(of: .string)),
        FieldSpec("region", .string),
        FieldSpec("subregion", .string),
        FieldSpec("population", .number),
        FieldSpec("latlng", .list(of: .number)),
        FieldSpec("demonym", .string),
        FieldSpec("area", .number, optional: true, nullable: true),
        FieldSpec("gini", .number, optional: true, nullable: true),
        FieldSpec("timezones", .list(of: .string)),
        FieldSpec("borders", .list(of: .string)),
        FieldSpec("nativeName", .string),
        FieldSpec("numericCode", .string, optional: true, nullable: true),
        FieldSpec("currencies", .list(of: .object)),
        FieldSpec("languages", .list(of: .object)),
        FieldSpec("translations", .object),
        FieldSpec("flag", .string),
        FieldSpec("regionalBlocs", .list(of: .object), optional: true),
        FieldSpec("cioc", .string, optional: true, nullable: true),
    ]

    public static func identities(of record: JSONValue) -> [String] {
        [record["alpha3Code"]?.string, record["alpha2Code"]?.string].compactMap { $0?.uppercased() }.filter { !$0.isEmpty }
    }

    public static func country(_ dataset: Dataset, row: Int) -> Country { Country(dataset.record(row)) }
}
