/// How many values of a field read as each kind, counted elsewhere (a database counts a
/// table's): typed in the words `fields` gives memory's fields (`FieldCatalog.Field`), so
/// the same data says `number (as text)`, `date`, `list of text` wherever it lives.
public struct FieldReadings: Sendable, Equatable {
    /// A value as memory's inference reads it (text by `TextReading`).
    public enum Reading: String, Sendable, CaseIterable {
        case number, numericText = "numeric text", date, text, boolean, object
        /// A list inside a list.
        case list
        /// JSON's null (a table's NULL is no value: a missing key reads the same).
        case null
    }

    public var counts: [Reading: Int] = [:]
    /// Whether the values sit in lists.
    public var inList = false

    public init() {}

    public mutating func add(_ reading: Reading, count: Int) { counts[reading, default: 0] += count }

    public var typeDescription: String {
        let kinds: [Reading: JSONDocument.Kind] = [.number: .number, .numericText: .string, .date: .string, .text: .string,
                                                   .boolean: .true, .object: .object, .list: .array, .null: .null]
        var field = FieldCatalog.Field(path: "", kinds: Set(counts.filter { $0.value > 0 }.keys.compactMap { kinds[$0] }), inList: inList,
                                       count: 0, example: nil, values: nil, isDerived: false)
        let count = { (reading: Reading) in counts[reading] ?? 0 }
        if count(.numericText) + count(.date) > 0 {
            field.readsAs = TextReading.dominant(numbers: count(.number) + count(.numericText), dates: count(.date), texts: count(.text))
        }
        return field.typeDescription
    }
}
