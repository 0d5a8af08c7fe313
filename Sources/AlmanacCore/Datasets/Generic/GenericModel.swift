/// Any other array of objects, or NDJSON: fields are whatever the records have. The name field
/// is the first of `name`, `title`, a `…Name`/`…Title` key, or the first short text field;
/// search and `show` look at every short text field (see `layout`).
public enum GenericModel: RecordModel {
    public static let singular = "record"
    public static let plural = "records"
    public static let nameField = "name"
    public static let listFields: [String] = []

    /// `250 records from data.items`, `40,370 records · CSV (;), 7 columns`.
    public static func summary(of dataset: Dataset) -> String {
        "\(dataset.count.grouped) \(dataset.count == 1 ? singular : plural)"
            + (dataset.origin.recordsAt.map { " from \($0)" } ?? "")
            + (dataset.origin.format.map { " · \($0)" } ?? "")
    }

    /// Text longer than this many bytes (about 200 characters) is prose — a description, an
    /// article —, not something a record is known by.
    public static let shortTextLimit = 400
    /// Records looked at to learn the fields.
    public static let sampleSize = 200

    public static func layout(of document: JSONDocument, records: [Int]) -> Layout {
        // The keys of the first records, in order, with whether they hold text and whether
        // that text is short (strings, or lists of strings, that fit a line).
        var keys: [(key: String, isText: Bool, isShort: Bool)] = []
        // Where each key is in `keys`: a search of the array per member was quadratic in the
        // number of fields (20,000 columns: 5 s).
        var places: [String: Int] = [:]
        // Nested objects by key, and keys holding lists of objects.
        var objects: [String: [Int]] = [:]
        var listsOfObjects: Set<String> = []
        for record in records.prefix(sampleSize) {
            for member in document.members(of: record) {
                let key = document.string(at: member.key)
                switch document.kind(at: member.value) {
                case .object: objects[key, default: []].append(member.value)
                case .array where document.elements(of: member.value).contains { document.kind(at: $0) == .object }: listsOfObjects.insert(key)
                default: break
                }
                let (isText, isShort) = textKind(of: member.value, in: document)
                if let index = places[key] {
                    keys[index].isText = keys[index].isText || isText
                    keys[index].isShort = keys[index].isShort && (isShort || !isText)
                } else {
                    places[key] = keys.count
                    keys.append((key, isText, isShort || !isText))
                }
            }
        }
        var layout = layout(keys: keys)
        // Readable columns: a nested object by the member that names it (`user.login`), not
        // a bag of its values; one that nothing names, and lists of objects, are left to `show`.
        let columns = keys.map(\.key).filter { $0 != layout.nameField && !listsOfObjects.contains($0) }.compactMap { key in
            objects[key].map { nested in ObjectIdentity.namingKey(of: nested, in: document).map { key + "." + $0 } } ?? key
        }
        layout.listFields = keys.isEmpty ? [] : [layout.nameField] + columns.prefix(5)
        return layout
    }

    /// The name field, listing columns and other names for records with these keys, in order,
    /// with whether each holds text and whether that text is short (a database table's
    /// columns are chosen the same way).
    public static func layout(keys: [(key: String, isText: Bool, isShort: Bool)]) -> Layout {
        let textKeys = keys.filter(\.isText).map(\.key)
        let shortKeys = keys.filter { $0.isText && $0.isShort }.map(\.key)
        let lowered = textKeys.map { $0.lowercased() }
        let nameField = typedName(among: keys.map(\.key), text: textKeys)
            ?? ["name", "title"].compactMap { wanted in lowered.firstIndex(of: wanted).map { textKeys[$0] } }.first
            ?? shortKeys.first { $0.lowercased().hasSuffix("name") || $0.lowercased().hasSuffix("title") }
            ?? shortKeys.first
            ?? textKeys.first
            ?? keys.first?.key
            ?? "name"
        let scalarKeys = keys.map(\.key).filter { $0 != nameField }
        // Records of no fields (an empty file's) list no column they do not have.
        return Layout(nameField: nameField, listFields: keys.isEmpty ? [] : [nameField] + scalarKeys.prefix(5),
                      otherNameFields: shortKeys.filter { $0 != nameField })
    }

    /// The name field of the bundled model whose checked fields these keys all have, when it
    /// holds text: stations written to a table or a file are named by their stationTitle, as
    /// the stations model names them, not by the first `…Title` (countryTitle).
    static func typedName(among keys: [String], text: [String]) -> String? {
        bundledShape(among: keys) { text.contains($0) }?.nameField
    }

    /// The key of the bundled model whose shape records with these keys and this name field
    /// have: a copy of the countries is found by alpha3Code (`show AUT`), as the bundled
    /// dataset is, not by every record whose borders name AUT.
    static func typedKey(among keys: [String], naming nameField: String) -> String? {
        bundledShape(among: keys) { $0 == nameField }?.fieldSpecs.first(where: \.identity)?.key
    }

    /// The first bundled model whose checked fields are all among `keys` and whose name field
    /// `nameFits`.
    private static func bundledShape(among keys: [String], nameFits: (String) -> Bool) -> (any RecordModel.Type)? {
        let present = Set(keys)
        return DefaultDatasets.all.lazy.map(\.model).first { model in
            !model.fieldSpecs.isEmpty && model.fieldSpecs.allSatisfy { $0.optional || present.contains($0.key) }
                && nameFits(model.nameField)
        }
    }

    /// Whether a value is text (a string, or a list of strings), and whether it is short. The
    /// words for none are no text: a number field with some `n/a` is a number field.
    private static func textKind(of node: Int, in document: JSONDocument) -> (isText: Bool, isShort: Bool) {
        switch document.kind(at: node) {
        case .string where ValueText.isAbsent(stringAt: node, in: document):
            return (false, false)
        case .string:
            return (true, document.textRange(at: node).count <= shortTextLimit)
        case .array:
            let elements = document.elements(of: node)
            guard !elements.isEmpty, elements.allSatisfy({ document.kind(at: $0) == .string }) else { return (false, false) }
            return (true, elements.allSatisfy { document.textRange(at: $0).count <= shortTextLimit })
        default:
            return (false, false)
        }
    }
}
