/// Results spanning datasets (`use all`) list each record's dataset beside its name; `dataset`
/// is then a field of every record, its dataset's name, which filter, sort, group and TAB take
/// as they take any text field. A field the records have under that name comes first.
public enum DatasetField {
    public static let name = "dataset"

    /// Whether `field` is the dataset's name in results whose datasets have `catalogs`.
    public static func names(_ field: String, in catalogs: [FieldCatalog]) -> Bool {
        field == name && catalogs.count > 1 && !catalogs.contains { FieldLookup.field(field, in: $0) != nil }
    }

    /// The same for datasets whose fields may not be known yet (TAB never waits for them).
    public static func names(_ field: String, inReady datasets: [Dataset]) -> Bool {
        field == name && datasets.count > 1 && !datasets.contains { $0.fieldsIfReady.map { FieldLookup.field(field, in: $0) != nil } ?? false }
    }

    /// Whether a record of the dataset called `dataset` meets `dataset OP VALUE`: as a text
    /// field's word does (folded; against a number or a date it orders nowhere).
    static func meets(_ dataset: String, _ op: FilterExpression.Operator, _ value: String) -> Bool {
        let negated = op == .notEqual || op == .notContains
        let positive: FilterExpression.Operator = op == .notEqual ? .equal : (op == .notContains ? .contains : op)
        if positive.isOrdering, NumericText.literal(value) != nil || CalendarDate.seconds(value) != nil { return false }
        return FieldComparison.compareBytes(Array(Folding.fold(dataset).utf8), Array(Folding.fold(value).utf8), positive) != negated
    }
}
