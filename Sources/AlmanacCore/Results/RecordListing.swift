/// Records of a result set as a table: the chosen fields of one dataset, or each record's name
/// when the results span datasets (`use all`).
public enum RecordListing {
    /// The rows `range` of `results` under `fields` (ignored when the results span datasets).
    /// `chosen`: the user picked the fields, so machine formats write them rather than whole records.
    public static func table(_ results: ResultSet, range: Range<Int>, fields: [String], chosen: Bool = false) -> ResultTable {
        var table: ResultTable
        if results.spansDatasets {
            table = ResultTable(columns: [ResultColumn("name")], count: range.count) { row in
                let item = results.items[range.lowerBound + row]
                return [.text(results.dataset(of: item).name(of: item.row))]
            }
            table.sections = Sections(names: results.datasets.map(\.name)) { results.items[range.lowerBound + $0].dataset }
        } else if let dataset = results.datasets.first {
            // Computed columns (near's distance) are shown after the fields, unless placed among them.
            let fields = fields + results.computed.map(\.name).filter { name in !fields.contains { $0.lowercased() == name.lowercased() } }
            let computed = fields.map { results.computedColumn($0) }
            let paths = fields.map { dataset.compile(FieldPath($0)) }
            let identities = Set(dataset.model.fieldSpecs.filter(\.identity).map(\.key))
            let columns = fields.enumerated().map { index, field in
                let kind: ResultColumn.Kind = computed[index].map { $0.kind == .integer ? .integer : .decimal } ?? .field
                var column = ResultColumn(field, kind, grouped: !identities.contains(field))
                column.isName = field == dataset.layout.nameField
                return column
            }
            table = ResultTable(columns: columns, count: range.count) { row in
                let item = results.items[range.lowerBound + row]
                // A nested object is one value (shown by its name, written whole), not its members'.
                return paths.indices.map { index in
                    computed[index]?.cell(of: item) ?? ResultValue(dataset.wholeValues(of: paths[index], row: item.row), in: dataset)
                }
            }
            table.columnsChosen = chosen
        } else {
            table = ResultTable(columns: fields.map { ResultColumn($0, .field) }, rows: [])
        }
        table.records = RecordRows(results: results, range: range)
        table.firstNumber = range.lowerBound + 1
        return table
    }
}
