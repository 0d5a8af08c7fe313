import Foundation

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
            // A step's own column (near's distance) is shown after the fields, unless placed among them.
            let fields = fields + results.computed.map(\.name).filter { name in !fields.contains { $0.lowercased() == name.lowercased() } }
            let stepColumns = fields.map { results.computedColumn($0) }
            // `area as a` is the column area titled a: read as the field, by memory and from a database's rows alike.
            let read = fields.map { field in dataset.fieldsIfReady.flatMap { ComputedValues.renamedField(field, in: [$0]) } ?? field }
            let paths = read.map { Self.path(of: $0, in: dataset) }
            // A field whose values sit in lists is a list in every row, one element or several,
            // so a program reading `borders` finds one type (`["ESP"]`, not `"ESP"`).
            let inList = read.map { dataset.fieldsIfReady?.field($0)?.inList ?? false }
            let identities = Set(dataset.model.fieldSpecs.filter(\.identity).map(\.key))
            // Computed columns (`population / area as density`), over the rows shown only.
            let page = results.with(Array(results.items[range]))
            let computed = fields.indices.map { stepColumns[$0] == nil && read[$0] == fields[$0] ? Self.computed(fields[$0], in: dataset, over: page) : nil }
            let columns = fields.enumerated().map { index, field in
                let title = ComputedField.title(of: field)
                let kind: ResultColumn.Kind = stepColumns[index].map { $0.kind == .integer ? .integer : .decimal } ?? .field
                // A renamed field groups digits only where the field does too (`id as key` reads 1000013).
                let grouped = ComputedField.groupsThousands(field) && (read[index] == field || ComputedField.groupsThousands(read[index]))
                var column = ResultColumn(title, kind, grouped: !identities.contains(read[index]) && grouped)
                column.isName = read[index] == dataset.layout.nameField
                return column
            }
            table = ResultTable(columns: columns, count: range.count) { row in
                let item = results.items[range.lowerBound + row]
                // A nested object is one value (shown by its name, written whole), not its members'.
                return paths.indices.map { index in
                    if let column = stepColumns[index] { return column.cell(of: item) }
                    if let values = computed[index] { return values(row, item.row) }
                    let values = dataset.wholeValues(of: paths[index], row: item.row)
                    if inList[index], values.count == 1 { return .list([ResultValue(values[0], in: dataset)]) }
                    return ResultValue(values, in: dataset)
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

    /// A field's path; a key spelt as the whole spec (a database's computed column) is that key.
    static func path(of field: String, in dataset: Dataset) -> Dataset.CompiledPath {
        if field.contains("."), case .interned = dataset.document.key(field) { return dataset.compile(FieldPath(components: [field])) }
        return dataset.compile(FieldPath(field))
    }

    /// A computed column's value for (position on the page, row of the dataset): sent with the
    /// rows by a database, else computed over the page; nil when `field` is a field.
    static func computed(_ field: String, in dataset: Dataset, over page: ResultSet) -> (@Sendable (Int, Int) -> ResultValue)? {
        if let sent = dataset.extras[ComputedColumns.self]?.values[field] {
            return { _, row in sent.indices.contains(row) ? sent[row] : .absent }
        }
        if case .interned = dataset.document.key(field) { return nil }
        guard let catalog = dataset.fieldsIfReady, let parsed = try? ComputedValues.expression(field, in: [catalog], datasets: [dataset]) else { return nil }
        guard let vector = try? ComputedValues.evaluate(parsed.expression, over: page) else { return { _, _ in .absent } }
        return { position, _ in value(vector, row: position) }
    }

    /// One row's computed value: a number, a date, text, or a list of them.
    static func value(_ vector: ValueVector, row: Int) -> ResultValue {
        let range = vector.range(of: row)
        func one(_ index: Int) -> ResultValue {
            guard vector.isPresent(index) else { return .absent }
            switch vector.values {
            case let .numbers(numbers):
                let number = numbers[index]
                if vector.type == .date { return .date(Date(timeIntervalSince1970: number)) }
                return number == number.rounded() && abs(number) < 1e15 ? .integer(Int(number)) : .decimal(number)
            case let .texts(texts): return .text(texts[index]!)
            case let .booleans(booleans): return .boolean(booleans[index] == 1)
            }
        }
        if vector.offsets == nil { return one(range.lowerBound) }
        let values = range.map(one).filter { !$0.isAbsent }
        return values.isEmpty ? .absent : .list(values)
    }
}

/// Computed columns' values of rows a database sent (`population / area as density`), by spec
/// and row: kept beside the rows, so the records stay as the source has them.
public struct ComputedColumns: Sendable {
    public var values: [String: [ResultValue]]

    public init(values: [String: [ResultValue]]) { self.values = values }
}
