/// Any other array of objects, or NDJSON: fields are whatever the records have. The name field
/// is the first of `name`, `title`, a `…Name`/`…Title` key, or the first text field.
public enum GenericModel: RecordModel {
    public static let singular = "record"
    public static let plural = "records"
    public static let nameField = "name"
    public static let listFields: [String] = []

    public static func layout(of document: JSONDocument, records: [Int]) -> Layout {
        // The keys of the first records, in order, with whether they hold text.
        var keys: [(key: String, isText: Bool)] = []
        for record in records.prefix(50) {
            for member in document.members(of: record) {
                let key = document.string(at: member.key)
                let isText = document.kind(at: member.value) == .string
                if let index = keys.firstIndex(where: { $0.key == key }) {
                    keys[index].isText = keys[index].isText || isText
                } else {
                    keys.append((key, isText))
                }
            }
        }
        let textKeys = keys.filter(\.isText).map(\.key)
        let lowered = textKeys.map { $0.lowercased() }
        let nameField = ["name", "title"].compactMap { wanted in lowered.firstIndex(of: wanted).map { textKeys[$0] } }.first
            ?? textKeys.first { $0.lowercased().hasSuffix("name") || $0.lowercased().hasSuffix("title") }
            ?? textKeys.first
            ?? keys.first?.key
            ?? "name"
        let scalarKeys = keys.map(\.key).filter { $0 != nameField }
        return Layout(nameField: nameField, listFields: [nameField] + scalarKeys.prefix(5))
    }
}
