/// The field `show ID` finds a loaded file's records by: the one `load … key FIELD` names,
/// else a top-level `id`, `key`, `uuid` or `_id` (in any case) of the records, else the key of
/// the bundled dataset whose shape they have (alpha3Code for a copy of the countries).
public enum RecordKey {
    static let conventional = ["id", "key", "uuid", "_id"]

    /// The model's layout for these records, with its identity field. `columns`: a delimited
    /// text's, which name its fields when no record does (a header alone).
    static func layout(of model: any RecordModel.Type, document: JSONDocument, records: [Int], key: String?,
                       columns: [String] = [], source: String) throws(LoadFailure) -> Layout {
        var layout = records.isEmpty && !columns.isEmpty
            ? GenericModel.layout(keys: columns.map { ($0, false, true) })
            : model.layout(of: document, records: records)
        let sample = records.prefix(GenericModel.sampleSize)
        var keys: [String] = records.isEmpty ? columns : []
        // A set beside the ordered names: a file of 20,000 columns took 5 s checking the array.
        var seen: Set<String> = Set(keys)
        for record in sample {
            for member in document.members(of: record) {
                let name = document.string(at: member.key)
                if seen.insert(name).inserted { keys.append(name) }
            }
        }
        if let key {
            guard records.contains(where: { document.member(key, of: $0) != nil }) || (records.isEmpty && columns.contains(key)) else {
                let advice = Suggestion.closest(to: key, among: keys).map { " — did you mean '\($0)'?" } ?? " — its fields: " + keys.prefix(8).joined(separator: ", ")
                throw .shape(source: source, message: "no record has a field '\(key)' to be the key\(advice)")
            }
            layout.identityField = key
        } else if model == GenericModel.self {
            layout.identityField = conventionalField(among: keys) ?? GenericModel.typedKey(among: keys, naming: layout.nameField)
        }
        return layout
    }

    /// The first of `id`, `key`, `uuid`, `_id` (in any case) among `names`.
    public static func conventionalField(among names: [String]) -> String? {
        conventional.lazy.compactMap { wanted in names.first { $0.lowercased() == wanted } }.first
    }
}
